import { BlockProducer, type BlockTime } from './block_producer.js'
import { ChainState, genesisSnapshot, type Block } from './chain_state.js'
import { DEFAULT_ACCOUNT_BALANCE, DEVNET_ACCOUNTS, type DevnetAccount } from './devnet_accounts.js'
import { DevnetServer, type HangTimer } from './devnet_server.js'
import { FaultInjector } from './fault_injector.js'
import { isTestnetPrincipal } from './principals.js'
import { StateFile } from './state_file.js'
import { admitTransaction, type AdmissionResult } from './transaction_admission.js'

export { DEFAULT_ACCOUNT_BALANCE, DEVNET_ACCOUNTS, type DevnetAccount } from './devnet_accounts.js'
export { FaultInjector, type InjectedStatus, type TransactionFault } from './fault_injector.js'
export type { BlockTime } from './block_producer.js'
export type { HangTimer } from './devnet_server.js'
export { DevnetStateError } from './state_error.js'
export { removeDevnetState } from './state_file.js'
export { stateFileHolder } from './state_lock.js'

export const DEFAULT_DEVNET_PORT = 3999
export const DEFAULT_DEVNET_HOST = '127.0.0.1'
export const DEFAULT_BLOCK_TIME_MS = 2000
const DEFAULT_HANG_MS = 30_000

export interface StartDevnetOptions {
  /** Default 3999 (the @stacks/network devnet preset's port); 0 picks a free port. */
  port?: number
  host?: string
  /** Default 2000 ms. 0 mines right after each accepted transaction; null or 'manual' only on demand. */
  blockTimeMs?: BlockTime
  /**
   * Extra genesis balances in µSTX, added to the pre-funded accounts. Only a
   * new chain has a genesis: ignored when the chain is restored from `statePath`.
   */
  fund?: { address: string; amount: bigint }[]
  /**
   * Keep the chain in this JSON file across restarts: restored from it at
   * start when it exists, saved to it as it changes and on stop. Default: in memory.
   */
  statePath?: string
  /** Clock in Unix milliseconds, for receipt and block times. */
  now?: () => number
  /** How long a timeout fault holds a request before dropping the connection. */
  hangMs?: number
  /** Schedules that drop, like setTimeout; tests pass one they fire themselves. */
  hangTimer?: HangTimer
}

export interface MinedBlock {
  blockHeight: number
  blockHash: string
  /** Hex txids without 0x, in execution order. */
  txids: string[]
}

export interface Devnet {
  /** e.g. 'http://127.0.0.1:3999' */
  url: string
  port: number
  accounts: readonly DevnetAccount[]
  faults: FaultInjector
  /** The state file, or null for an in-memory chain. */
  statePath: string | null
  /** True when the chain was restored from the state file rather than started anew. */
  restored: boolean
  /** The height of the chain tip. */
  blockHeight(): number
  /** Mines a block; with a state file, one holding transactions is saved before this resolves. */
  mine(): Promise<MinedBlock>
  /** How blocks are mined from now on: every N ms, 0 for each accepted transaction, null manual. */
  setBlockTime(blockTime: BlockTime): void
  balanceOf(address: string): bigint
  /** The next nonce the chain will execute for the address (mempool not counted). */
  nonceOf(address: string): bigint
  /** Closes the server and, with a state file, saves the chain a last time and releases the file. */
  stop(): Promise<void>
}

export async function startDevnet(options: StartDevnetOptions = {}): Promise<Devnet> {
  const now = options.now ?? Date.now
  const genesis = genesisBalances(options.fund ?? [])
  const file = options.statePath ? await StateFile.open(options.statePath) : null
  const state = new ChainState({
    now,
    snapshot: file?.saved ?? genesisSnapshot(genesis, now()),
  })
  file?.track(() => state.snapshot())
  const save = (): Promise<void> => file?.save() ?? Promise.resolve()
  const faults = new FaultInjector()

  const mineBlock = async (): Promise<Block> => {
    const block = state.mineBlock((txid) => faults.isAborted(txid))
    // An empty block is saved with the next change or on stop: a crash loses
    // at most a few empty blocks, never a transaction.
    if (block.txids.length > 0) await save()
    return block
  }
  // null means manual: only a missing blockTimeMs takes the default.
  const producer = new BlockProducer(
    options.blockTimeMs === undefined ? DEFAULT_BLOCK_TIME_MS : options.blockTimeMs,
    () => {
      mineBlock().catch((error: unknown) => {
        process.emitWarning(`the devnet could not save its chain to ${file?.path}: ${error}`)
      })
    }
  )

  // Answered once saved: a txid the caller was given is never lost by a crash.
  const submit = async (bytes: Uint8Array): Promise<AdmissionResult> => {
    const result = admitTransaction(state, bytes)
    if (result.outcome === 'accepted') {
      state.admit(result.tx, result.replaces)
      faults.admitted(result.tx)
      producer.transactionAccepted()
      await save()
    }
    return result
  }

  const server = new DevnetServer(
    { state, faults, accounts: DEVNET_ACCOUNTS, submit, mine: mineBlock },
    { hangMs: options.hangMs ?? DEFAULT_HANG_MS, hangTimer: options.hangTimer }
  )
  const host = options.host ?? DEFAULT_DEVNET_HOST
  let port: number
  try {
    if (file && !file.saved) await save()
    port = await server.listen(options.port ?? DEFAULT_DEVNET_PORT, host)
  } catch (error) {
    await file?.close()
    throw error
  }
  producer.start()
  // A restored mempool is mined as if its transactions had just been accepted.
  if (state.mempoolSize > 0) producer.transactionAccepted()

  let stopped: Promise<void> | null = null
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    accounts: DEVNET_ACCOUNTS,
    faults,
    statePath: file?.path ?? null,
    restored: Boolean(file?.saved),
    blockHeight: () => state.tip.height,
    async mine() {
      const block = await mineBlock()
      return { blockHeight: block.height, blockHash: block.hash, txids: [...block.txids] }
    },
    setBlockTime: (blockTime) => producer.setBlockTime(blockTime),
    balanceOf: (address) => state.balanceOf(address),
    nonceOf: (address) => state.nextNonce(address),
    stop() {
      if (!stopped) {
        producer.stop()
        stopped = server.close().then(() => file?.close())
      }
      return stopped
    },
  }
}

function genesisBalances(fund: { address: string; amount: bigint }[]): Map<string, bigint> {
  const balances = new Map<string, bigint>()
  for (const account of DEVNET_ACCOUNTS) balances.set(account.address, DEFAULT_ACCOUNT_BALANCE)
  for (const { address, amount } of fund) {
    if (!isTestnetPrincipal(address)) {
      throw new Error(`Cannot fund ${address}: not a testnet (ST…/SN…) address`)
    }
    if (typeof amount !== 'bigint' || amount < 0n) {
      throw new Error(`Cannot fund ${address}: amount must be a non-negative bigint of µSTX`)
    }
    balances.set(address, (balances.get(address) ?? 0n) + amount)
  }
  return balances
}
