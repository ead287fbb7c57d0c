import { webhookSecretAtRest } from '../src/webhooks/secret-at-rest';
import { ReadableSecretVault } from '../testing/webhook-fakes';

describe('a webhook secret kept under an Idempotency-Key', () => {
  const atRest = webhookSecretAtRest(new ReadableSecretVault());
  const answer = (secret: string) => ({ status: 201, body: `{"id":7,"secret":${JSON.stringify(secret)},"url":"https://erp.example/h"}` });

  it('is stored sealed and replayed as the very text of the first answer', () => {
    const first = answer('whsec_c2VjcmV0LW9uZQ==');
    const stored = atRest.seal(first);
    expect(stored.body).toContain('"secret":"sealed:whsec_');
    expect(atRest.open(stored)).toEqual(first);
  });

  it('replays an answer stored in clear before answers were sealed, instead of failing the replay', () => {
    const legacy = answer('whsec_c2VjcmV0LXR3bw==');
    expect(atRest.open(legacy)).toEqual(legacy);
  });

  it('leaves an answer without a secret (a kept refusal) as it is', () => {
    const refusal = { status: 404, body: '{"code":"resource-not-found"}' };
    expect(atRest.seal(refusal)).toEqual(refusal);
  });
});
