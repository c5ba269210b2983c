import { inject } from '@adonisjs/core'
import { Database } from '@adonisjs/lucid/database'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { Clock } from '#core/clock'

interface NonceRow {
  next: bigint
  /** Nonces given back by transactions the node definitely refused, reused first (no gaps). */
  released: bigint[]
}

/**
 * The platform wallet's nonces: a counter per sender address, row-locked for
 * the length of the caller's transaction, seeded from the node's
 * `possible_next_nonce`. Every platform transaction takes its nonce here, so
 * no two live transactions share one; a nonce whose transaction the node
 * refused is released and taken by the next transaction.
 */
@inject()
export class PlatformNonces {
  constructor(
    private db: Database,
    private clock: Clock
  ) {}

  /** Creates the counter at the node's next nonce unless it exists (call before locking). */
  async seed(address: string, possibleNextNonce: () => Promise<bigint>) {
    const existing = await this.db.from('platform_nonces').where('address', address).first()
    if (existing) return
    await this.db
      .table('platform_nonces')
      .insert({ address, next_nonce: String(await possibleNextNonce()) })
      .onConflict('address')
      .ignore()
  }

  /** Locks the counter until the transaction ends: one dispatcher at a time per sender. */
  async lock(trx: TransactionClientContract, address: string): Promise<void> {
    await this.#read(trx, address)
  }

  async take(trx: TransactionClientContract, address: string): Promise<bigint> {
    const row = await this.#read(trx, address)
    const [lowest, ...rest] = row.released
    if (lowest !== undefined) {
      await this.#write(trx, address, { next: row.next, released: rest })
      return lowest
    }
    await this.#write(trx, address, { next: row.next + 1n, released: row.released })
    return row.next
  }

  /** Gives a nonce back: the top one lowers the counter, any other waits to be reused. */
  async release(trx: TransactionClientContract, address: string, nonce: bigint) {
    const row = await this.#read(trx, address)
    if (nonce >= row.next || row.released.includes(nonce)) return
    let next = row.next
    const released = [...row.released, nonce].sort(compare)
    while (released.length > 0 && released[released.length - 1] === next - 1n) {
      released.pop()
      next -= 1n
    }
    await this.#write(trx, address, { next, released })
  }

  /**
   * What the node says: never hand out a nonce at or below its last executed
   * one, nor start below its next possible one (mempool included). A released
   * nonce the chain has not executed stays released: it is a gap to fill.
   */
  async resync(
    trx: TransactionClientContract,
    address: string,
    node: { possibleNextNonce: bigint; lastExecutedNonce: bigint | null }
  ) {
    const row = await this.#read(trx, address)
    const executed = node.lastExecutedNonce ?? -1n
    await this.#write(trx, address, {
      next: row.next > node.possibleNextNonce ? row.next : node.possibleNextNonce,
      released: row.released.filter((nonce) => nonce > executed),
    })
  }

  async #read(trx: TransactionClientContract, address: string): Promise<NonceRow> {
    const row = await trx
      .from('platform_nonces')
      .where('address', address)
      .forUpdate()
      .select('next_nonce', 'released')
      .firstOrFail()
    return {
      next: BigInt(row.next_nonce),
      released: (row.released as (string | number)[]).map((nonce) => BigInt(nonce)).sort(compare),
    }
  }

  async #write(trx: TransactionClientContract, address: string, row: NonceRow) {
    await trx
      .from('platform_nonces')
      .where('address', address)
      .update({
        next_nonce: row.next.toString(),
        released: row.released.map(String),
        updated_at: new Date(this.clock.now()),
      })
  }
}

function compare(a: bigint, b: bigint) {
  return a < b ? -1 : a > b ? 1 : 0
}
