import express from 'express';

/** The HTTP ceiling of this machine for the service's shape of request: parse JSON, answer 201. */
const app = express();
app.use(express.json({ limit: '1mb' }));
app.post('/v1/receivables', (req, res) => {
  res.status(201).json({ id: 1, ...req.body, status: 'PENDING' });
});
const server = app.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
});
