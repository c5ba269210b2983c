import { inject } from '@adonisjs/core'
import { Database } from '@adonisjs/lucid/database'
import { ClarityType, deserializeTransaction, isTokenTransferPayload } from '@stacks/transactions'
import { StacksClient } from '#chain/stacks_client'

const LOOKUPS_PER_CALL = 50

/**
 * What the chain says of settled withdrawals: each confirmed one's stored
 * transaction hashes to its txid and pays the withdrawal's amount to its
 * destination with its memo, and the node reports that txid mined
 * successfully (the txid is the hash of the bytes, so the chain cannot have
 * paid anything else under it); no failed one — restored — was mined
 * successfully after all.
 */
@inject()
export class WithdrawalChainAudit {
  constructor(
    private db: Database,
    private stacks: StacksClient
  ) {}

  async run(): Promise<string[]> {
    const rows = await this.db
      .from('withdrawals')
      .whereIn('status', ['confirmed', 'failed'])
      .whereNotNull('txid')
      .orderBy('created_at')
      .select('id', 'status', 'txid', 'raw_tx', 'amount_microstx', 'destination_address', 'memo')
    const findings = rows.filter((row) => row.status === 'confirmed').flatMap(bytesFindings)
    for (let start = 0; start < rows.length; start += LOOKUPS_PER_CALL) {
      const batch = rows.slice(start, start + LOOKUPS_PER_CALL)
      const statuses = await this.stacks.getTransactions(batch.map((row) => row.txid))
      for (const row of batch) {
        const status = statuses.get(row.txid)
        if (row.status === 'confirmed' && !status?.confirmed) {
          findings.push(
            `confirmed withdrawal ${row.id}: the node reports 0x${row.txid} ${status ? status.status : 'unknown'}`
          )
        }
        if (row.status === 'failed' && status?.confirmed) {
          findings.push(
            `failed withdrawal ${row.id}: 0x${row.txid} was mined successfully, yet its amount was restored`
          )
        }
      }
    }
    return findings
  }
}

function bytesFindings(row: Record<string, any>): string[] {
  const what = `confirmed withdrawal ${row.id}`
  let tx
  try {
    tx = deserializeTransaction(new Uint8Array(row.raw_tx))
  } catch {
    return [`${what}: its stored transaction does not decode`]
  }
  if (tx.txid() !== row.txid) return [`${what}: its stored transaction is not 0x${row.txid}`]
  const payload = tx.payload
  if (
    !isTokenTransferPayload(payload) ||
    payload.recipient.type !== ClarityType.PrincipalStandard
  ) {
    return [`${what}: its transaction is not an STX transfer to a standard address`]
  }
  const findings: string[] = []
  if (payload.recipient.value !== row.destination_address) {
    findings.push(`${what}: pays ${payload.recipient.value}, not ${row.destination_address}`)
  }
  if (BigInt(payload.amount) !== BigInt(row.amount_microstx)) {
    findings.push(`${what}: pays ${payload.amount} µSTX, not ${row.amount_microstx}`)
  }
  const memo = payload.memo.content.replace(/\0+$/, '')
  if (memo !== row.memo) findings.push(`${what}: carries memo "${memo}", not "${row.memo}"`)
  return findings
}
