import { createHash } from 'node:crypto'

/** A decoded, admitted STX transfer. Amounts are µSTX. */
export interface TransferTx {
  /** Hex, no 0x prefix (what `StacksTransactionWire.txid()` returns). */
  txid: string
  raw: Uint8Array
  sender: string
  recipient: string
  amount: bigint
  fee: bigint
  nonce: bigint
  /** The 34 raw memo bytes, hex without 0x. */
  memoHex: string
  anchorMode: 'on_chain_only' | 'off_chain_only' | 'any'
  postConditionMode: 'allow' | 'deny' | 'originator'
}

export type TxStatus = 'pending' | 'success' | 'abort_by_response' | 'dropped_replace_by_fee'

export interface Block {
  height: number
  /** Hex, no 0x prefix. */
  hash: string
  parentHash: string
  consensusHash: string
  burnBlockHeight: number
  /** Unix seconds. */
  burnBlockTime: number
  txids: string[]
}

export interface TxRecord {
  tx: TransferTx
  status: TxStatus
  /** Unix milliseconds. */
  receivedAt: number
  replacedBy: string | null
  block: Block | null
  parentBlock: Block | null
  txIndex: number | null
}

export interface AccountState {
  balance: bigint
  /** The next nonce the chain will execute for this principal. */
  nonce: bigint
  totalSent: bigint
  totalReceived: bigint
  totalFeesSent: bigint
}

/**
 * Everything the chain holds, as plain data: a new chain's genesis, or a chain
 * read back from a state file. Records are shared with the live state, not
 * copied: encode a snapshot at once.
 */
export interface ChainSnapshot {
  genesis: Block
  tip: Block
  accounts: Map<string, AccountState>
  /** Every admitted transaction, including dropped ones, in admission order. */
  transactions: TxRecord[]
  /** Pending txids in the order they were received. */
  mempool: string[]
}

export interface ChainStateOptions {
  now: () => number
  snapshot: ChainSnapshot
}

/** A new chain: the genesis block and the genesis balances, nothing else. */
export function genesisSnapshot(
  balances: ReadonlyMap<string, bigint>,
  timeMs: number
): ChainSnapshot {
  const accounts = new Map<string, AccountState>()
  for (const [principal, amount] of balances) {
    accounts.set(principal, { ...emptyAccount(), balance: amount })
  }
  const hash = sha256Hex('tollbooth-devnet-genesis')
  const genesis: Block = {
    height: 0,
    hash,
    parentHash: '0'.repeat(64),
    consensusHash: sha256Hex(`consensus:${hash}`).slice(0, 40),
    burnBlockHeight: 0,
    burnBlockTime: Math.floor(timeMs / 1000),
    txids: [],
  }
  return { genesis, tip: genesis, accounts, transactions: [], mempool: [] }
}

export class ChainState {
  readonly #now: () => number
  readonly #accounts = new Map<string, AccountState>()
  /** Every transaction ever admitted, including dropped ones. */
  readonly #txs = new Map<string, TxRecord>()
  /** Pending txids in the order they were received. */
  readonly #mempool = new Set<string>()
  readonly #genesis: Block
  /** Older blocks are only kept by the transactions they hold (no route lists blocks). */
  #tip: Block

  constructor(options: ChainStateOptions) {
    this.#now = options.now
    const { genesis, tip, accounts, transactions, mempool } = options.snapshot
    this.#genesis = genesis
    this.#tip = tip
    for (const [principal, account] of accounts) this.#accounts.set(principal, account)
    for (const record of transactions) this.#txs.set(record.tx.txid, record)
    for (const txid of mempool) this.#mempool.add(txid)
  }

  snapshot(): ChainSnapshot {
    return {
      genesis: this.#genesis,
      tip: this.#tip,
      accounts: new Map(this.#accounts),
      transactions: [...this.#txs.values()],
      mempool: [...this.#mempool],
    }
  }

  get tip(): Block {
    return this.#tip
  }

  get genesis(): Block {
    return this.#genesis
  }

  account(principal: string): Readonly<AccountState> {
    return this.#accounts.get(principal) ?? emptyAccount()
  }

  balanceOf(principal: string): bigint {
    return this.account(principal).balance
  }

  nextNonce(principal: string): bigint {
    return this.account(principal).nonce
  }

  get(txid: string): TxRecord | undefined {
    return this.#txs.get(txid)
  }

  /** True when the txid is pending or mined; dropped transactions are not "known". */
  isKnown(txid: string): boolean {
    const record = this.#txs.get(txid)
    return record !== undefined && record.status !== 'dropped_replace_by_fee'
  }

  /** Pending transactions sent by `principal`, lowest nonce first. */
  pendingFrom(principal: string): TransferTx[] {
    return this.#pending()
      .filter((tx) => tx.sender === principal)
      .sort((a, b) => (a.nonce < b.nonce ? -1 : a.nonce > b.nonce ? 1 : 0))
  }

  /** Pending transactions paying `principal`. */
  pendingTo(principal: string): TransferTx[] {
    return this.#pending().filter((tx) => tx.recipient === principal)
  }

  get mempoolSize(): number {
    return this.#mempool.size
  }

  /**
   * Puts an already validated transaction in the mempool. `replaces` is the
   * txid it outbids (replace-by-fee), which is dropped.
   */
  admit(tx: TransferTx, replaces: string | null): TxRecord {
    if (replaces !== null) {
      const old = this.#txs.get(replaces)
      if (old && old.status === 'pending') {
        old.status = 'dropped_replace_by_fee'
        old.replacedBy = tx.txid
        this.#mempool.delete(replaces)
      }
    }
    const record: TxRecord = {
      tx,
      status: 'pending',
      receivedAt: this.#now(),
      replacedBy: null,
      block: null,
      parentBlock: null,
      txIndex: null,
    }
    this.#txs.set(tx.txid, record)
    this.#mempool.add(tx.txid)
    return record
  }

  /**
   * Mines one block with every pending transaction whose nonce is next in
   * line for its sender (so chains of nonces go in together and gaps wait).
   * `shouldAbort` lets a fault force a transaction to fail on-chain.
   */
  mineBlock(shouldAbort: (txid: string) => boolean): Block {
    const parent = this.tip
    const height = parent.height + 1
    const burnBlockTime = Math.max(Math.floor(this.#now() / 1000), parent.burnBlockTime)
    const included: TxRecord[] = []

    let progressed = true
    while (progressed) {
      progressed = false
      for (const txid of this.#mempool) {
        const record = this.#txs.get(txid)
        if (!record) continue
        const sender = this.#mutableAccount(record.tx.sender)
        // A transaction that cannot pay its fee is invalid, never mined.
        if (record.tx.nonce !== sender.nonce || sender.balance < record.tx.fee) continue
        this.#execute(record, sender, shouldAbort(txid))
        this.#mempool.delete(txid)
        included.push(record)
        progressed = true
      }
    }

    const txids = included.map((record) => record.tx.txid)
    const hash = sha256Hex(`${parent.hash}:${height}:${burnBlockTime}:${txids.join(',')}`)
    const block: Block = {
      height,
      hash,
      parentHash: parent.hash,
      consensusHash: sha256Hex(`consensus:${hash}`).slice(0, 40),
      burnBlockHeight: height,
      burnBlockTime,
      txids,
    }
    included.forEach((record, index) => {
      record.block = block
      record.parentBlock = parent
      record.txIndex = index
    })
    this.#tip = block
    return block
  }

  #execute(record: TxRecord, sender: AccountState, aborted: boolean): void {
    const { tx } = record
    sender.balance -= tx.fee
    sender.totalFeesSent += tx.fee
    sender.nonce += 1n
    // Clarity's stx-transfer? returns (err u1) on insufficient balance; the
    // transaction is still mined and its fee kept.
    if (aborted || sender.balance < tx.amount) {
      record.status = 'abort_by_response'
      return
    }
    sender.balance -= tx.amount
    sender.totalSent += tx.amount
    const recipient = this.#mutableAccount(tx.recipient)
    recipient.balance += tx.amount
    recipient.totalReceived += tx.amount
    record.status = 'success'
  }

  #pending(): TransferTx[] {
    const pending: TransferTx[] = []
    for (const txid of this.#mempool) {
      const record = this.#txs.get(txid)
      if (record) pending.push(record.tx)
    }
    return pending
  }

  #mutableAccount(principal: string): AccountState {
    let account = this.#accounts.get(principal)
    if (!account) {
      account = emptyAccount()
      this.#accounts.set(principal, account)
    }
    return account
  }
}

function emptyAccount(): AccountState {
  return { balance: 0n, nonce: 0n, totalSent: 0n, totalReceived: 0n, totalFeesSent: 0n }
}

function sha256Hex(input: string): string {
  return createHash('sha256').update(input).digest('hex')
}
