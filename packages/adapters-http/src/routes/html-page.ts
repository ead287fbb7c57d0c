import type { RequestHandler } from 'express';

/** A whole HTML document: the head every page of the service shares, then `body`. */
export function htmlDocument(title: string, style: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Receivables and Collections Service: ${title}</title>
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
