/**
 * Slow endpoints a worker remembers. Past it, those that answered nothing for FORGET_SLOW_MS go (a deleted webhook's
 * among them), else the least slow (it costs least to claim for as fast).
 */
const SLOW_ENDPOINTS_KEPT = 1_024;
const FORGET_SLOW_MS = 10 * 60_000;

/**
 * The share of maxWaitMs a claim counts on for its rounds: an attempt's wait runs from before the claim's round trip,
 * and answers vary about their smoothed time.
 */
const WAIT_MARGIN = 0.8;

/**
 * How long the endpoints too slow for `maxRounds` rounds of their slots within `maxWaitMs` take to answer, smoothed
 * over their answers, kept while their queues in the worker come and go. One that became fast again leaves.
 */
export class SlowEndpoints {
  private readonly answers = new Map<number, { readonly answerMs: number; readonly at: number }>();

  constructor(
    private readonly maxWaitMs: number,
    private readonly maxRounds: number,
  ) {}

  /** The webhooks remembered as slow. */
  webhookIds(): IterableIterator<number> {
    return this.answers.keys();
  }

  has(webhookId: number): boolean {
    return this.answers.has(webhookId);
  }

  /**
   * Rounds of its slots a webhook's endpoint answers within maxWaitMs: maxRounds unless remembered as slow, 0 when
   * slower than maxWaitMs.
   */
  roundsOf(webhookId: number): number {
    const answerMs = this.answers.get(webhookId)?.answerMs;
    return answerMs === undefined ? this.maxRounds : this.roundsWithin(answerMs);
  }

  answered(webhookId: number, answerMs: number): void {
    const now = performance.now();
    const known = this.answers.get(webhookId)?.answerMs;
    // A hanging endpoint counts as twice maxWaitMs: enough to claim for its free slots alone, and quick to forget.
    const sample = Math.min(answerMs, 2 * this.maxWaitMs);
    const smoothed = known === undefined ? sample : known + (sample - known) / 4;
    if (this.roundsWithin(smoothed) === this.maxRounds) {
      this.answers.delete(webhookId);
      return;
    }
    this.answers.set(webhookId, { answerMs: smoothed, at: now });
    if (this.answers.size <= SLOW_ENDPOINTS_KEPT) return;
    for (const [id, { at }] of this.answers) if (now - at > FORGET_SLOW_MS) this.answers.delete(id);
    if (this.answers.size <= SLOW_ENDPOINTS_KEPT) return;
    const [leastSlow] = [...this.answers].reduce((least, entry) => (entry[1].answerMs < least[1].answerMs ? entry : least));
    this.answers.delete(leastSlow);
  }

  private roundsWithin(answerMs: number): number {
    return Math.min(this.maxRounds, Math.floor((WAIT_MARGIN * this.maxWaitMs) / Math.max(answerMs, 1)));
  }
}
