import express from 'express';
import { listenForBench } from './children';

/** The HTTP ceiling of this machine for the service's shape of request: parse JSON, answer 201. */
const app = express();
app.use(express.json({ limit: '1mb' }));
app.post('/v1/receivables', (req, res) => {
  res.status(201).json({ id: 1, ...req.body, status: 'PENDING' });
});
listenForBench(app);
