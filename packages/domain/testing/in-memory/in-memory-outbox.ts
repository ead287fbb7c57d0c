import type { DomainEvent, Outbox } from '../../src';
import { nextId, type Tables, type TablesRef } from './in-memory-tables';

/** Stores events as pending for the dispatcher: what the outbox does, and the settlement step beside its movements. */
export function recordEvents(tables: Tables, events: readonly DomainEvent[]): void {
  for (const event of events) {
    const seq = nextId(tables, 'event');
    tables.outbox.push({ ...event, seq, id: `evt_${seq.toString().padStart(24, '0')}` });
    tables.pendingEvents.add(seq);
  }
}

export class InMemoryOutbox implements Outbox {
  constructor(private readonly ref: TablesRef) {}

  async record(events: readonly DomainEvent[]): Promise<void> {
    recordEvents(this.ref.tables, events);
  }
}
