#!/usr/bin/env node
// The npm registry reachable here serves only this platform's builds of packages such as @swc/core and
// unrs-resolver, so `npm install` cannot write lock entries for the other platforms' optional binaries, and
// `npm ci` then calls the lock out of sync. This adds those entries as optional, with the os/cpu their names
// state, exactly as npm writes them on an unrestricted registry; npm ci skips them on other platforms.
// Run after changing dependencies: npm install && node scripts/complete-lockfile.js
const fs = require('node:fs');
const path = require('node:path');

const file = path.join(__dirname, '..', 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const OS = ['darwin', 'linux', 'win32', 'freebsd', 'android', 'openharmony', 'wasm32', 'sunos', 'aix', 'netbsd', 'openbsd'];
const CPU = ['arm64', 'x64', 'ia32', 'arm', 'ppc64', 's390x', 'riscv64', 'loong64', 'mips64el'];

function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((p) => OS.includes(p));
  const cpu = parts.find((p) => CPU.includes(p) || p === 'arm64ec');
  const libc = parts.some((p) => p.startsWith('musl')) ? 'musl' : parts.some((p) => p === 'gnu' || p.startsWith('gnueabi')) ? 'glibc' : undefined;
  return { os, cpu, libc };
}

let added = 0;
for (const [location, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const base = location === '' ? '' : `${location}/`;
    const candidates = [`${base}node_modules/${name}`, `node_modules/${name}`];
    if (candidates.some((c) => lock.packages[c])) continue;
    const { os, cpu, libc } = platformOf(name);
    if (!os && !cpu) continue;
    lock.packages[`node_modules/${name}`] = {
      version: version.replace(/^[\^~=]/, ''),
      ...(cpu ? { cpu: [cpu] } : {}),
      ...(entry.dev ? { dev: true } : {}),
      ...(libc ? { libc: [libc] } : {}),
      optional: true,
      ...(os ? { os: [os] } : {}),
    };
    added++;
  }
}
const sorted = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
lock.packages = sorted;
fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: added ${added} optional platform entries`);
