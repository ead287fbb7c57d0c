import request from 'supertest';
import { useTestApi } from '../support/test-api';

/** GET /metrics: what an operator's Prometheus scrapes. */
describe('GET /metrics', () => {
  const ctx = useTestApi();
  const scrape = async () => (await request(ctx.api.http).get('/metrics')).text;

  it("answers without a token in Prometheus' text format, with the process's own metrics", async () => {
    const res = await request(ctx.api.http).get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.text).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(res.text).toMatch(/^nodejs_eventloop_lag_seconds /m);
  });

  it("counts and times requests by route template and status, never by a resource's id or a customer", async () => {
    const id = 987_654_321;
    await ctx.api.call('get', `/v1/receivables/${id}`, { token: ctx.token });
    await request(ctx.api.http).get(`/no/such/path/${id}`);
    // Express matches paths whatever their case; the label is the template still, not text the caller chose.
    await request(ctx.api.http).get(`/V1/Receivables/${id}?a=/receivables/minted`).set('Authorization', `Bearer ${ctx.token}`);
    await request(ctx.api.http).get('/HEALTH?x=minted/health');
    const text = await scrape();
    expect(text).not.toContain('minted');
    expect(text).toMatch(/^rcs_http_requests_total\{method="GET",route="\/health",status="200"\} [1-9]\d*$/m);
    expect(text).toMatch(/^rcs_http_requests_total\{method="GET",route="\/v1\/receivables\/:id",status="404"\} [1-9]\d*$/m);
    expect(text).toMatch(/^rcs_http_requests_total\{method="GET",route="unmatched",status="404"\} [1-9]\d*$/m);
    expect(text).toMatch(/^rcs_http_request_duration_seconds_count\{method="GET",route="\/v1\/receivables\/:id"\} [1-9]\d*$/m);
    expect(text).not.toContain(String(id));
    expect(text).not.toMatch(/customer/i);
  });
});
