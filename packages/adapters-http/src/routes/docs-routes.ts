import { Router } from 'express';
import { htmlDocument, htmlPage } from './html-page';

/** Where the page finds its renderer: served from the installed package, so the page works with no internet. */
const RENDERER_PATH = '/docs/assets/redoc.standalone.js';
// Redoc's standalone bundle holds the renderer and everything it uses in one file.
const rendererFile = require.resolve('redoc/bundles/redoc.standalone.js');

// Nothing from elsewhere: Redoc shows its logo from Redocly's CDN, which the page then goes without, so it renders
// the same offline and tells no third party who reads it. Redoc styles itself inline and searches in a blob worker.
const CONTENT_SECURITY_POLICY = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; worker-src 'self' blob:";

const page = htmlDocument(
  'API reference',
  'body { margin: 0; }',
  `<redoc spec-url="/v1/openapi.json"></redoc>
<script src="${RENDERER_PATH}"></script>`,
);

/** GET /docs: the API reference, the served OpenAPI document (GET /v1/openapi.json) rendered by Redoc. Public like the document. */
export function docsRoutes(): Router {
  return Router()
    .get('/docs', htmlPage(CONTENT_SECURITY_POLICY, page))
    .get(RENDERER_PATH, (_req, res) => {
      res.sendFile(rendererFile);
    });
}
