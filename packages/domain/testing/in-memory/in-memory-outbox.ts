import type { DomainEvent, Outbox } from '../../src';
import type { TablesRef } from './in-memory-tables';
import { nextId } from './in-memory-tables';

export class InMemoryOutbox implements Outbox {
  constructor(private readonly ref: TablesRef) {}

  async record(events: readonly DomainEvent[]): Promise<void> {
    for (const event of events) {
      const seq = nextId(this.ref.tables, 'event');
      this.ref.tables.outbox.push({ ...event, seq, id: `evt_${seq.toString().padStart(24, '0')}` });
      this.ref.tables.pendingEvents.add(seq);
    }
  }
}
