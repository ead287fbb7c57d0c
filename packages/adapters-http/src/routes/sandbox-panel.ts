import { Router } from 'express';
import { htmlDocument, htmlPage } from './html-page';

const SCRIPT_PATH = '/sandbox/panel.js';

// The page signs in with the caller's own credential and calls the API it sits beside, nothing else: scripts from
// this service only, no framing (it holds a token), forms sent by its script alone.
const CONTENT_SECURITY_POLICY = "default-src 'self'; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; form-action 'none'";

const page = htmlDocument(
  'sandbox',
  `
body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 48rem; padding: 0 1rem; }
form, .runs { display: grid; gap: 0.5rem; margin: 1rem 0; }
label { display: grid; gap: 0.2rem; }
.ok { color: #05612b; } .failed { color: #a11; }
`,
  `<h1>Sandbox</h1>
<p>Simulate what the bank and the scheduled jobs do, for your own customer only: money arriving on a receivable
account's CVU, then the settlement, expiration and transfer runs. The same as the <code>/v1/sandbox</code> helpers of
the <a href="/docs">API reference</a>; the token stays in this page's memory.</p>
<form id="sign-in">
<label>Client id <input name="clientId" autocomplete="username" required></label>
<label>Client secret <input name="clientSecret" type="password" autocomplete="current-password" required></label>
<button>Sign in</button>
</form>
<section id="panel" hidden>
<h2>Simulate a collection</h2>
<form id="collection">
<label>Receivable account <select name="receivableAccountId" required></select></label>
<label>Amount (ARS) <input name="amount" inputmode="decimal" placeholder="1500.00" required></label>
<label>Payer's name <input name="name" required></label>
<label>Payer's tax id (CUIT or CUIL) <input name="taxId" inputmode="numeric" required></label>
<button>Simulate collection</button>
</form>
<h2>Run the scheduled jobs now</h2>
<div class="runs">
<button id="settlement-run">Run settlement</button>
<button id="expiration-run">Run expiration</button>
<button id="transfer-run">Run transfers</button>
</div>
</section>
<h2>Results</h2>
<ol id="results" aria-live="polite"></ol>
<script src="${SCRIPT_PATH}"></script>`,
);

// Plain script, no build step: it runs as written in any current browser.
const script = `'use strict';
let token;
const results = document.getElementById('results');

function show(text, ok) {
  const item = document.createElement('li');
  item.textContent = text;
  item.className = ok ? 'ok' : 'failed';
  results.prepend(item);
}

// A fresh key per click: a click retried by the browser is one collection, two clicks are two.
function newKey() {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

async function call(method, path, body) {
  const headers = { 'content-type': 'application/json', 'idempotency-key': newKey() };
  if (token) headers.authorization = 'Bearer ' + token;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  const answer = text ? JSON.parse(text) : null;
  if (!res.ok) throw new Error(res.status + ' ' + (answer && answer.code ? answer.code + ': ' + answer.detail : text));
  return answer;
}

async function loadAccounts() {
  const accounts = await call('GET', '/v1/receivable-accounts?status=ACTIVE&count=100');
  const select = document.querySelector('#collection select');
  select.replaceChildren(
    ...accounts.map((a) => {
      const option = document.createElement('option');
      option.value = a.id;
      option.textContent = a.id + ' · ' + a.alias + ' · CVU ' + a.cvu;
      return option;
    }),
  );
  if (accounts.length === 0) show('No ACTIVE receivable account yet: open one with POST /v1/receivable-accounts, then sign in again.', false);
}

function acting(form, work) {
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      await work(new FormData(form));
    } catch (error) {
      show(error.message, false);
    }
  });
}

acting(document.getElementById('sign-in'), async (data) => {
  token = undefined;
  document.getElementById('panel').hidden = true;
  const session = await call('POST', '/v1/auth/login', { clientId: data.get('clientId'), clientSecret: data.get('clientSecret') });
  token = session.accessToken;
  document.getElementById('panel').hidden = false;
  show('Signed in as ' + data.get('clientId') + '.', true);
  await loadAccounts();
});

acting(document.getElementById('collection'), async (data) => {
  const movement = await call('POST', '/v1/sandbox/collections', {
    receivableAccountId: Number(data.get('receivableAccountId')),
    amount: data.get('amount'),
    counterParty: { name: data.get('name'), taxId: data.get('taxId') },
  });
  show('Collected ' + movement.amount + ' ' + movement.currencyCode + ' on account ' + movement.receivableAccountId + ' (movement ' + movement.id + ').', true);
});

const runs = {
  'settlement-run': ['/v1/sandbox/settlement-runs', (r) => 'Settlement run: ' + r.settlements + ' settlements, ' + r.settledReceivables + ' receivables, ' + r.settledAmount + ' ARS.'],
  'expiration-run': ['/v1/sandbox/expiration-runs', (r) => 'Expiration run: ' + r.expiredReceivables + ' receivables expired.'],
  'transfer-run': ['/v1/sandbox/transfer-runs', (r) => 'Transfer run: ' + r.completed + ' completed, ' + r.failed + ' failed, ' + r.inProgress + ' in progress.'],
};
for (const [id, [path, describe]] of Object.entries(runs)) {
  document.getElementById(id).addEventListener('click', async () => {
    try {
      show(describe(await call('POST', path, {})), true);
    } catch (error) {
      show(error.message, false);
    }
  });
}
`;

/** GET /sandbox: a page to simulate collections and run the jobs by hand (SPEC: "a web panel"). Sandbox mode only. */
export function sandboxPanelRoutes(): Router {
  return Router()
    .get('/sandbox', htmlPage(CONTENT_SECURITY_POLICY, page))
    .get(SCRIPT_PATH, (_req, res) => {
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.type('text/javascript').send(script);
    });
}
