import type { StatementCache } from './sqlite-search.js';
import { MAX_SLOT, ridBase, SEQ_BITS } from './sqlite-schema.js';

/**
 * KB slots and row ids of the SQLite index (rid = slot·2³⁰ + kind·2²⁸ + seq, see sqlite-schema.ts).
 * Slots are remembered; seq counters are only trusted inside one write transaction (`reset()` around it).
 */
export class RidAllocator {
  private readonly slots = new Map<string, number>();
  private readonly nextSeq = new Map<number, number>();

  constructor(private readonly statements: StatementCache) {}

  /** The KB's slot (created on first write when `create`). */
  slotOf(kbId: string, create: boolean): number | null {
    const cached = this.slots.get(kbId);
    if (cached !== undefined) return cached;
    let slot = this.statements.get('SELECT slot FROM kb_slot WHERE kb_id = ?').pluck().get(kbId) as
      number | undefined;
    if (slot === undefined) {
      if (!create) return null;
      slot = Number(this.statements.get('SELECT COALESCE(MAX(slot), 0) + 1 FROM kb_slot').pluck().get());
      if (slot > MAX_SLOT) throw new Error('chunk index: no free knowledge-base slot');
      this.statements.get('INSERT INTO kb_slot(kb_id, slot) VALUES (?, ?)').run(kbId, slot);
    }
    this.slots.set(kbId, slot);
    return slot;
  }

  forget(kbId: string): void {
    this.slots.delete(kbId);
  }

  reset(): void {
    this.nextSeq.clear();
  }

  /** A new rid in the slot's kind range (inside a write transaction). */
  alloc(slot: number, kind: number): number {
    const key = slot * 4 + kind;
    const base = ridBase(slot, kind);
    let next = this.nextSeq.get(key);
    if (next === undefined) {
      const max = this.statements
        .get('SELECT MAX(rid) FROM chunk WHERE rid BETWEEN ? AND ?')
        .pluck()
        .get(base, base + SEQ_BITS - 1) as number | null;
      next = max === null ? 0 : max - base + 1;
    }
    if (next >= SEQ_BITS) throw new Error('chunk index: knowledge base partition is full');
    this.nextSeq.set(key, next + 1);
    return base + next;
  }
}
