import { GroupCommit } from '../src/shared/group-commit';

/** A write that is held open until released, recording what each write carried. */
function heldWrites(failWhen: (items: readonly string[]) => boolean = () => false) {
  const writes: string[][] = [];
  const pending: Array<() => void> = [];
  const write = (items: readonly string[]) => {
    writes.push([...items]);
    return new Promise<void>((resolve, reject) => pending.push(() => (failWhen(items) ? reject(new Error(`failed: ${items.join(',')}`)) : resolve())));
  };
  const releaseAll = async () => {
    while (pending.length > 0) {
      pending.shift()!();
      await new Promise(setImmediate);
    }
  };
  return { write, writes, releaseAll };
}

describe('group commit', () => {
  it('writes the first item at once and those that arrive meanwhile together, up to the batch size', async () => {
    const { write, writes, releaseAll } = heldWrites();
    const group = new GroupCommit(write, 2);
    const done = ['a', 'b', 'c', 'd'].map((item) => group.add(item));
    await releaseAll();
    await Promise.all(done);
    expect(writes).toEqual([['a'], ['b', 'c'], ['d']]);
  });

  it('rejects only the caller whose item fails: a failed batch is written again item by item', async () => {
    const { write, writes, releaseAll } = heldWrites((items) => items.includes('bad'));
    const group = new GroupCommit(write, 10);
    const first = group.add('first');
    const outcomes = Promise.allSettled(['ok', 'bad', 'fine'].map((item) => group.add(item)));
    await releaseAll();
    await first;
    expect((await outcomes).map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(writes).toEqual([['first'], ['ok', 'bad', 'fine'], ['ok'], ['bad'], ['fine']]);
  });
});
