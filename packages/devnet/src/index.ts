import { BlockProducer, type BlockTime } from './block_producer.js'
import { ChainState, type Block } from './chain_state.js'
import { DEFAULT_ACCOUNT_BALANCE, DEVNET_ACCOUNTS, type DevnetAccount } from './devnet_accounts.js'
import { DevnetServer, type HangTimer } from './devnet_server.js'
import { FaultInjector } from './fault_injector.js'
import { isTestnetPrincipal } from './principals.js'
import { admitTransaction, type AdmissionResult } from './transaction_admission.js'

export { DEFAULT_ACCOUNT_BALANCE, DEVNET_ACCOUNTS, type DevnetAccount } from './devnet_accounts.js'
export { FaultInjector, type InjectedStatus } from './fault_injector.js'
export type { BlockTime } from './block_producer.js'
export type { HangTimer } from './devnet_server.js'

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
  /** Extra genesis balances in µSTX, added to the pre-funded accounts. */
  fund?: { address: string; amount: bigint }[]
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
  mine(): Promise<MinedBlock>
  /** How blocks are mined from now on: every N ms, 0 for each accepted transaction, null manual. */
  setBlockTime(blockTime: BlockTime): void
  balanceOf(address: string): bigint
  /** The next nonce the chain will execute for the address (mempool not counted). */
  nonceOf(address: string): bigint
  stop(): Promise<void>
}

export async function startDevnet(options: StartDevnetOptions = {}): Promise<Devnet> {
  const now = options.now ?? Date.now
  const state = new ChainState({ now, genesisBalances: genesisBalances(options.fund ?? []) })
  const faults = new FaultInjector()

  const mineBlock = (): Block => state.mineBlock((txid) => faults.isAborted(txid))
  const producer = new BlockProducer(options.blockTimeMs ?? DEFAULT_BLOCK_TIME_MS, () => {
    mineBlock()
  })

  const submit = (bytes: Uint8Array): AdmissionResult => {
    const result = admitTransaction(state, bytes)
    if (result.outcome === 'accepted') {
      state.admit(result.tx, result.replaces)
      producer.transactionAccepted()
    }
    return result
  }

  const server = new DevnetServer(
    { state, faults, accounts: DEVNET_ACCOUNTS, submit, mine: mineBlock },
    { hangMs: options.hangMs ?? DEFAULT_HANG_MS, hangTimer: options.hangTimer }
  )
  const host = options.host ?? DEFAULT_DEVNET_HOST
  const port = await server.listen(options.port ?? DEFAULT_DEVNET_PORT, host)
  producer.start()

  let stopped: Promise<void> | null = null
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    accounts: DEVNET_ACCOUNTS,
    faults,
    async mine() {
      const block = mineBlock()
      return { blockHeight: block.height, blockHash: block.hash, txids: [...block.txids] }
    },
    setBlockTime: (blockTime) => producer.setBlockTime(blockTime),
    balanceOf: (address) => state.balanceOf(address),
    nonceOf: (address) => state.nextNonce(address),
    stop() {
      if (!stopped) {
        producer.stop()
        stopped = server.close()
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
