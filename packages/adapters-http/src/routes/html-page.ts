import { Router, type RequestHandler } from 'express';

// The pages' icon, named in their head: without one a browser asks for /favicon.ico and logs the 404.
const ICON_PATH = '/favicon.svg';
const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1f4e79"/><text x="16" y="22" font-family="sans-serif" font-size="16" font-weight="bold" fill="#fff" text-anchor="middle">R</text></svg>`;

/** A whole HTML document: the head every page of the service shares, then `body`. */
export function htmlDocument(title: string, style: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Receivables and Collections Service: ${title}</title>
<link rel="icon" href="${ICON_PATH}" type="image/svg+xml">
<style>${style}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

/** Answers `html` under its Content-Security-Policy, which says what the page may load and do. */
export function htmlPage(contentSecurityPolicy: string, html: string): RequestHandler {
  return (_req, res) => {
    res.setHeader('Content-Security-Policy', contentSecurityPolicy);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.type('html').send(html);
  };
}

/** GET /favicon.svg: the icon every page names, public and cached for a day. */
export function iconRoute(): Router {
  return Router().get(ICON_PATH, (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.type('image/svg+xml').send(ICON);
  });
}
