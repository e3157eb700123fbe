import type { AddressInfo } from 'node:net';
import express from 'express';
import { serveParent } from '../kit/child.ts';

/**
 * The bare Express baseline's server: Express 5 (the service's version) answering one small JSON
 * object, with no middleware, so its rate is what Express and Node's HTTP cost on this machine.
 */
const app = express();
const answer = { status: 'success', data: { id: 'game_0123456789', active: true, price: 200 } };
app.get('/json', (_request, response) => {
  response.json(answer);
});
// For the outgoing-HTTP baseline: a POST whose body is read, answered as a wallet answers.
app.post('/json', express.json(), (_request, response) => {
  response.json(answer);
});
const listening = new Promise<number>((resolve) => {
  const server = app.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
});
serveParent(async () => ({ port: await listening }));
