import vine from '@vinejs/vine'
import { defineAdapter } from '#feeds/builtin/adapter'
import { round } from '#feeds/builtin/rounding'

const SATS_PER_BTC = 100_000_000
const WHALE_THRESHOLD_BTC = 100
/** The newest blocks scanned, and how many 25-transaction pages of each. */
const BLOCKS_SCANNED = 2
const PAGES_PER_BLOCK = 2
const PAGE_SIZE = 25
/** At most this many large mempool arrivals are looked up in full. */
const MEMPOOL_LOOKUPS = 3

/**
 * Exchange wallets by address: the exchange-labelled entries of
 * BitInfoCharts' rich list, plus Binance's long-standing hot wallet
 * (GraphSense tag pack). A transfer touching one is an exchange flow.
 */
export const EXCHANGE_WALLETS: Record<string, string> = {
  '34xp4vRoCGJym3xR7yCVPFHoCNxv4Twseo': 'Binance',
  '3M219KR5vEneNb47ewrPfWyb5jQ2DjxRP6': 'Binance',
  '3LQUu4v9z6KNch71j7kbj8GPeAGUo1FW6a': 'Binance',
  '3FHNBLobJnbCTFTVakh5TXmEneyf5PT61B': 'Binance',
  '34HpHYiyQwg69gFmCq2BGHjF1DZnZnBeBP': 'Binance',
  'bc1qm34lsc65zpw79lxes69zkqmk6ee3ewf0j77s3h': 'Binance',
  '1NDyJtNTjmwk5xPNhjgAMu4HDHigtobu1s': 'Binance',
  'bc1qgdjqv0av3q56jvd82tkdjpy7gdp9ut8tlqmgrpmv24sq90ecnvqqjwvw97': 'Bitfinex',
  '3JZq4atUahhuA9rLhXLMhhTo133J9rF97j': 'Bitfinex',
  'bc1ql49ydapnjafl5t2cp9zqpjwe6pdgmxy98859v2': 'Robinhood',
  '3MgEAFWu1HKSnZ5ZsC8qf61ZW18xrP5pgd': 'OKX',
  '3FM9vDYsN2iuMPKWjAcqgyahdwdrUxhbJ3': 'OKX',
  '1CY7fykRLWXeSbKB885Kr4KjQxmDdvW923': 'OKX',
  'bc1qr4dl5wa7kl8yu792dceg9z5knl2gkn220lk7a9': 'Crypto.com',
  'bc1q4j7fcl8zx5yl56j00nkqez9zf3f6ggqchwzzcs5hjxwqhsgxvavq3qfgpr': 'Coincheck',
  'bc1qx2x5cqhymfcnjtg902ky6u5t5htmt7fvqztdsm028hkrvxcl4t2sjtpd9l': 'Bitbank',
  '162bzZT2hJfv5Gm3ZmWfWfHJjCtMD6rHhw': 'Gate.io',
}
const UNKNOWN = 'unknown wallet'

const output = () =>
  vine
    .object({ scriptpubkey_address: vine.string().optional(), value: vine.number().min(0) })
    .allowUnknownProperties()

const transaction = vine
  .object({
    txid: vine.string(),
    vin: vine.array(
      vine
        .object({ is_coinbase: vine.boolean(), prevout: output().nullable() })
        .allowUnknownProperties()
    ),
    vout: vine.array(output()),
    fee: vine.number(),
    status: vine
      .object({
        confirmed: vine.boolean(),
        block_height: vine.number().optional(),
        block_time: vine.number().optional(),
      })
      .allowUnknownProperties(),
  })
  .allowUnknownProperties()

const blocksSchema = vine.create(
  vine.array(
    vine
      .object({ id: vine.string(), height: vine.number(), tx_count: vine.number() })
      .allowUnknownProperties()
  )
)
const transactionsSchema = vine.create(vine.array(transaction))
const transactionSchema = vine.create(transaction)
const recentSchema = vine.create(
  vine.array(vine.object({ txid: vine.string(), value: vine.number() }).allowUnknownProperties())
)
const priceSchema = vine.create(
  vine.object({
    bitcoin: vine.object({ usd: vine.number().positive() }).allowUnknownProperties(),
  })
)

type Transaction = Awaited<ReturnType<typeof transactionSchema.validate>>
type AlertType = 'transfer' | 'exchange_inflow' | 'exchange_outflow'

const label = (address: string) => EXCHANGE_WALLETS[address] ?? UNKNOWN

function significance(amountBtc: number) {
  if (amountBtc > 3_000) return 'extreme'
  if (amountBtc > 1_000) return 'critical'
  return 'high'
}

/**
 * The amount a transaction moves: its outputs to addresses that are not
 * among its inputs (change back to a sending address is not a transfer).
 * A transaction paying only its own inputs' addresses moves all outputs.
 */
function movedOutputs(tx: Transaction) {
  const senders = new Set(tx.vin.map((input) => input.prevout?.scriptpubkey_address))
  const addressed = tx.vout.filter((out) => out.scriptpubkey_address !== undefined)
  const payees = addressed.filter((out) => !senders.has(out.scriptpubkey_address))
  return payees.length > 0 ? payees : addressed
}

/** The party to show: a known exchange if one takes part, else the largest by value. */
function party(entries: { address: string; value: number }[]) {
  const byAddress = new Map<string, number>()
  for (const { address, value } of entries) {
    byAddress.set(address, (byAddress.get(address) ?? 0) + value)
  }
  const ranked = [...byAddress].sort(([, a], [, b]) => b - a)
  const [address] = ranked.find(([candidate]) => EXCHANGE_WALLETS[candidate]) ?? ranked[0]
  return { address, label: label(address) }
}

function alertFor(tx: Transaction, priceUsd: number, observedAt: number) {
  if (tx.vin.some((input) => input.is_coinbase)) return undefined
  const moved = movedOutputs(tx)
  const amountBtc = moved.reduce((sum, out) => sum + out.value, 0) / SATS_PER_BTC
  if (amountBtc <= WHALE_THRESHOLD_BTC) return undefined

  const from = party(
    tx.vin.flatMap((input) =>
      input.prevout?.scriptpubkey_address
        ? [{ address: input.prevout.scriptpubkey_address, value: input.prevout.value }]
        : []
    )
  )
  const to = party(moved.map((out) => ({ address: out.scriptpubkey_address!, value: out.value })))
  const fromExchange = from.label !== UNKNOWN
  const toExchange = to.label !== UNKNOWN
  const type: AlertType =
    fromExchange && !toExchange
      ? 'exchange_outflow'
      : toExchange && !fromExchange
        ? 'exchange_inflow'
        : 'transfer'
  const confirmed = tx.status.confirmed && tx.status.block_time !== undefined

  return {
    id: tx.txid,
    txid: tx.txid,
    type,
    amount_btc: round(amountBtc, 8),
    amount_usd: round(amountBtc * priceUsd, 2),
    from,
    to,
    significance: significance(amountBtc),
    fee_sats: tx.fee,
    confirmed,
    block_height: confirmed ? (tx.status.block_height ?? null) : null,
    /** Block time when confirmed, else when we saw it in the mempool. */
    timestamp: new Date(confirmed ? tx.status.block_time! * 1000 : observedAt).toISOString(),
  }
}

type Alert = NonNullable<ReturnType<typeof alertFor>>

/** The labelled entity involved in most alerts (volume breaks ties). */
function mostActive(alerts: Alert[]) {
  if (alerts.length === 0) return 'none'
  const activity = new Map<string, { count: number; volume: number }>()
  for (const alert of alerts) {
    for (const name of new Set([alert.from.label, alert.to.label])) {
      if (name === UNKNOWN) continue
      const entry = activity.get(name) ?? { count: 0, volume: 0 }
      activity.set(name, { count: entry.count + 1, volume: entry.volume + alert.amount_btc })
    }
  }
  const [top] = [...activity].sort(([, a], [, b]) => b.count - a.count || b.volume - a.volume)
  return top ? top[0] : UNKNOWN
}

export default defineAdapter({
  upstreams: ['mempool', 'coingecko'],
  async fetch({ http, now }) {
    const latestBlocks = await http.getJson('mempool', '/api/blocks', blocksSchema)
    const blocks = latestBlocks.slice(0, BLOCKS_SCANNED)
    const pages = blocks.flatMap((block) =>
      Array.from({ length: PAGES_PER_BLOCK }, (_, page) => page * PAGE_SIZE)
        .filter((start) => start < block.tx_count)
        .map((start) =>
          http.getJson(
            'mempool',
            start === 0 ? `/api/block/${block.id}/txs` : `/api/block/${block.id}/txs/${start}`,
            transactionsSchema
          )
        )
    )
    const [blockTransactions, recent, price] = await Promise.all([
      Promise.all(pages).then((lists) => lists.flat()),
      http.getJson('mempool', '/api/mempool/recent', recentSchema),
      http.getJson('coingecko', '/api/v3/simple/price?ids=bitcoin&vs_currencies=usd', priceSchema),
    ])

    // A mempool arrival can only move > 100 BTC if its outputs total more.
    const seen = new Set(blockTransactions.map((tx) => tx.txid))
    const candidates = recent
      .filter((tx) => tx.value > WHALE_THRESHOLD_BTC * SATS_PER_BTC && !seen.has(tx.txid))
      .sort((a, b) => b.value - a.value)
      .slice(0, MEMPOOL_LOOKUPS)
    const mempoolTransactions = await Promise.all(
      candidates.map((tx) => http.getJson('mempool', `/api/tx/${tx.txid}`, transactionSchema))
    )

    const priceUsd = price.bitcoin.usd
    const observedAt = now()
    const alerts = [...blockTransactions, ...mempoolTransactions]
      .map((tx) => alertFor(tx, priceUsd, observedAt))
      .filter((alert): alert is Alert => alert !== undefined)
      .sort((a, b) => b.amount_btc - a.amount_btc)
    const totalBtc = alerts.reduce((sum, alert) => sum + alert.amount_btc, 0)
    const count = (key: 'type' | 'significance', value: string) =>
      alerts.filter((alert) => alert[key] === value).length

    return {
      alerts,
      summary: {
        alert_count: alerts.length,
        total_volume_btc: round(totalBtc, 8),
        total_volume_usd: round(totalBtc * priceUsd, 2),
        most_active: mostActive(alerts),
        by_type: {
          transfer: count('type', 'transfer'),
          exchange_inflow: count('type', 'exchange_inflow'),
          exchange_outflow: count('type', 'exchange_outflow'),
        },
        by_significance: {
          high: count('significance', 'high'),
          critical: count('significance', 'critical'),
          extreme: count('significance', 'extreme'),
        },
      },
      btc_price_usd: round(priceUsd, 2),
      threshold_btc: WHALE_THRESHOLD_BTC,
      scanned: {
        blocks: blocks.map((block) => block.height),
        block_transactions: blockTransactions.length,
        mempool_transactions: recent.length,
      },
      data_source: 'mempool.space (latest blocks and mempool), CoinGecko (BTC/USD)',
    }
  },
})
