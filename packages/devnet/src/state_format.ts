import type {
  AccountState,
  Block,
  ChainSnapshot,
  TransferTx,
  TxRecord,
  TxStatus,
} from './chain_state.js'

/**
 * The state file's JSON: a chain snapshot with every µSTX amount and nonce as
 * a decimal string (JSON numbers would round them), raw transactions in hex,
 * and only the blocks something refers to (genesis, tip, the blocks holding
 * transactions and their parents), so the file grows with transactions, not
 * with time. Decoding checks every field and cross-reference and throws an
 * Error naming the first one that is wrong.
 */
export const STATE_FORMAT = 'tollbooth-devnet-state'
export const STATE_FORMAT_VERSION = 1

const TX_STATUSES: readonly TxStatus[] = [
  'pending',
  'success',
  'abort_by_response',
  'dropped_replace_by_fee',
]
const MINED: readonly TxStatus[] = ['success', 'abort_by_response']
const ANCHOR_MODES: readonly TransferTx['anchorMode'][] = ['on_chain_only', 'off_chain_only', 'any']
const POST_CONDITION_MODES: readonly TransferTx['postConditionMode'][] = [
  'allow',
  'deny',
  'originator',
]
const HASH = /^[0-9a-f]{64}$/
const HEX = /^(?:[0-9a-f]{2})+$/
const CONSENSUS_HASH = /^[0-9a-f]{40}$/
const MEMO = /^[0-9a-f]{68}$/
const PRINCIPAL = /^S[0-9A-Z]{27,}(?:\.[a-zA-Z][a-zA-Z0-9_-]*)?$/

export function encodeState(snapshot: ChainSnapshot): string {
  const blocks = new Map<number, Block>([
    [snapshot.genesis.height, snapshot.genesis],
    [snapshot.tip.height, snapshot.tip],
  ])
  for (const record of snapshot.transactions) {
    if (record.block) blocks.set(record.block.height, record.block)
    if (record.parentBlock) blocks.set(record.parentBlock.height, record.parentBlock)
  }
  return JSON.stringify({
    format: STATE_FORMAT,
    version: STATE_FORMAT_VERSION,
    blocks: [...blocks.values()].sort((a, b) => a.height - b.height),
    accounts: Object.fromEntries(
      [...snapshot.accounts].map(([principal, account]) => [
        principal,
        {
          balance: account.balance.toString(),
          nonce: account.nonce.toString(),
          totalSent: account.totalSent.toString(),
          totalReceived: account.totalReceived.toString(),
          totalFeesSent: account.totalFeesSent.toString(),
        },
      ])
    ),
    transactions: snapshot.transactions.map(({ tx, status, receivedAt, replacedBy }) => ({
      txid: tx.txid,
      raw: Buffer.from(tx.raw).toString('hex'),
      sender: tx.sender,
      recipient: tx.recipient,
      amount: tx.amount.toString(),
      fee: tx.fee.toString(),
      nonce: tx.nonce.toString(),
      memoHex: tx.memoHex,
      anchorMode: tx.anchorMode,
      postConditionMode: tx.postConditionMode,
      status,
      receivedAt,
      replacedBy,
    })),
    mempool: snapshot.mempool,
  })
}

/** Throws when the text is not a state file of this version, naming what is wrong. */
export function decodeState(text: string): ChainSnapshot {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new Error(`not valid JSON (${error instanceof Error ? error.message : error})`)
  }
  const root = object(json, 'the file')
  if (root.format !== STATE_FORMAT) {
    throw new Error(`not a devnet state file (its "format" is not "${STATE_FORMAT}")`)
  }
  if (root.version !== STATE_FORMAT_VERSION) {
    throw new Error(
      `format version ${JSON.stringify(root.version)}, but this devnet reads version ${STATE_FORMAT_VERSION} only`
    )
  }

  const blocks = array(root.blocks, 'blocks').map((value, index) =>
    block(value, `blocks[${index}]`)
  )
  const byHeight = new Map<number, Block>()
  for (const [index, candidate] of blocks.entries()) {
    if (byHeight.has(candidate.height)) {
      throw new Error(`blocks[${index}]: a second block at height ${candidate.height}`)
    }
    byHeight.set(candidate.height, candidate)
  }
  const genesis = byHeight.get(0)
  if (!genesis) throw new Error('blocks: no genesis block (height 0)')
  const tip = blocks.reduce((highest, candidate) =>
    candidate.height > highest.height ? candidate : highest
  )

  const accounts = new Map<string, AccountState>()
  for (const [principal, value] of Object.entries(object(root.accounts, 'accounts'))) {
    const at = `accounts.${principal}`
    if (!PRINCIPAL.test(principal)) throw new Error(`${at}: not a Stacks principal`)
    const fields = object(value, at)
    accounts.set(principal, {
      balance: amount(fields.balance, `${at}.balance`),
      nonce: amount(fields.nonce, `${at}.nonce`),
      totalSent: amount(fields.totalSent, `${at}.totalSent`),
      totalReceived: amount(fields.totalReceived, `${at}.totalReceived`),
      totalFeesSent: amount(fields.totalFeesSent, `${at}.totalFeesSent`),
    })
  }

  const records = new Map<string, TxRecord>()
  for (const [index, value] of array(root.transactions, 'transactions').entries()) {
    const record = transaction(value, `transactions[${index}]`)
    if (records.has(record.tx.txid)) {
      throw new Error(`transactions[${index}]: txid ${record.tx.txid} appears twice`)
    }
    records.set(record.tx.txid, record)
  }

  for (const holder of blocks) {
    for (const [txIndex, txid] of holder.txids.entries()) {
      const at = `block ${holder.height}, txids[${txIndex}]`
      const record = records.get(txid)
      if (!record) throw new Error(`${at}: unknown transaction ${txid}`)
      if (!MINED.includes(record.status)) throw new Error(`${at}: ${txid} is ${record.status}`)
      if (record.block) throw new Error(`${at}: ${txid} is in two blocks`)
      const parent = byHeight.get(holder.height - 1)
      if (parent?.hash !== holder.parentHash) {
        throw new Error(`block ${holder.height}: no block ${holder.height - 1} with its parentHash`)
      }
      record.block = holder
      record.parentBlock = parent
      record.txIndex = txIndex
    }
  }

  const mempool = array(root.mempool, 'mempool').map((value, index) => {
    const txid = string(value, `mempool[${index}]`, HASH)
    if (!records.has(txid)) throw new Error(`mempool[${index}]: unknown transaction ${txid}`)
    return txid
  })
  const pending = new Set(mempool)
  if (pending.size !== mempool.length) throw new Error('mempool: a txid appears twice')
  for (const record of records.values()) {
    const { txid } = record.tx
    if (MINED.includes(record.status) && !record.block) {
      throw new Error(`transaction ${txid} is ${record.status} but in no block`)
    }
    if ((record.status === 'pending') !== pending.has(txid)) {
      throw new Error(
        `transaction ${txid} is ${record.status} but ${pending.has(txid) ? '' : 'not '}in the mempool`
      )
    }
    if (record.replacedBy !== null && !records.has(record.replacedBy)) {
      throw new Error(`transaction ${txid}: replaced by unknown transaction ${record.replacedBy}`)
    }
  }

  return { genesis, tip, accounts, transactions: [...records.values()], mempool }
}

function block(value: unknown, at: string): Block {
  const fields = object(value, at)
  return {
    height: integer(fields.height, `${at}.height`),
    hash: string(fields.hash, `${at}.hash`, HASH),
    parentHash: string(fields.parentHash, `${at}.parentHash`, HASH),
    consensusHash: string(fields.consensusHash, `${at}.consensusHash`, CONSENSUS_HASH),
    burnBlockHeight: integer(fields.burnBlockHeight, `${at}.burnBlockHeight`),
    burnBlockTime: integer(fields.burnBlockTime, `${at}.burnBlockTime`),
    txids: array(fields.txids, `${at}.txids`).map((txid, index) =>
      string(txid, `${at}.txids[${index}]`, HASH)
    ),
  }
}

function transaction(value: unknown, at: string): TxRecord {
  const fields = object(value, at)
  const replacedBy =
    fields.replacedBy === null ? null : string(fields.replacedBy, `${at}.replacedBy`, HASH)
  return {
    tx: {
      txid: string(fields.txid, `${at}.txid`, HASH),
      raw: new Uint8Array(Buffer.from(string(fields.raw, `${at}.raw`, HEX), 'hex')),
      sender: string(fields.sender, `${at}.sender`, PRINCIPAL),
      recipient: string(fields.recipient, `${at}.recipient`, PRINCIPAL),
      amount: amount(fields.amount, `${at}.amount`),
      fee: amount(fields.fee, `${at}.fee`),
      nonce: amount(fields.nonce, `${at}.nonce`),
      memoHex: string(fields.memoHex, `${at}.memoHex`, MEMO),
      anchorMode: oneOf(fields.anchorMode, `${at}.anchorMode`, ANCHOR_MODES),
      postConditionMode: oneOf(
        fields.postConditionMode,
        `${at}.postConditionMode`,
        POST_CONDITION_MODES
      ),
    },
    status: oneOf(fields.status, `${at}.status`, TX_STATUSES),
    receivedAt: integer(fields.receivedAt, `${at}.receivedAt`),
    replacedBy,
    block: null,
    parentBlock: null,
    txIndex: null,
  }
}

function object(value: unknown, at: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(`${at}: expected an object`)
  }
  return value as Record<string, unknown>
}

function array(value: unknown, at: string): unknown[] {
  if (!Array.isArray(value)) throw new Error(`${at}: expected an array`)
  return value
}

function string(value: unknown, at: string, pattern: RegExp): string {
  if (typeof value !== 'string' || !pattern.test(value)) {
    throw new Error(`${at}: expected a string matching ${pattern}`)
  }
  return value
}

function integer(value: unknown, at: string): number {
  if (!Number.isSafeInteger(value) || (value as number) < 0) {
    throw new Error(`${at}: expected a non-negative integer`)
  }
  return value as number
}

function amount(value: unknown, at: string): bigint {
  if (typeof value !== 'string' || !/^(?:0|[1-9][0-9]*)$/.test(value)) {
    throw new Error(`${at}: expected a non-negative integer as a decimal string`)
  }
  return BigInt(value)
}

function oneOf<T extends string>(value: unknown, at: string, allowed: readonly T[]): T {
  if (!allowed.includes(value as T)) {
    throw new Error(`${at}: expected one of ${allowed.join(', ')}`)
  }
  return value as T
}
