import {
  BytesReader,
  addressFromVersionHash,
  addressHashModeToVersion,
  addressToString,
  deserializeTransaction,
  type StacksTransactionWire,
} from '@stacks/transactions'
import type { StacksNetwork, StacksNetworkName } from '@stacks/network'

export type CanonicalDecoding =
  { ok: true; tx: StacksTransactionWire } | { ok: false; reason: string }

/**
 * Decodes bytes that must be exactly one canonical transaction: not
 * truncated, no trailing bytes, and re-serializing gives the input back
 * (otherwise the signature and txid would be about other bytes than the ones
 * that get broadcast).
 */
export function decodeCanonicalTransaction(bytes: Uint8Array): CanonicalDecoding {
  if (bytes.length === 0) return { ok: false, reason: 'the transaction is empty' }
  const reader = new BytesReader(bytes)
  let tx: StacksTransactionWire
  try {
    tx = deserializeTransaction(reader)
  } catch (error) {
    return { ok: false, reason: `the transaction does not decode: ${errorMessage(error)}` }
  }
  if (reader.consumed > bytes.length) return { ok: false, reason: 'the transaction is truncated' }
  if (reader.consumed < bytes.length) {
    return {
      ok: false,
      reason: `${bytes.length - reader.consumed} trailing byte(s) after the transaction`,
    }
  }
  let again: Uint8Array
  try {
    again = tx.serializeBytes()
  } catch (error) {
    return { ok: false, reason: `the transaction does not re-encode: ${errorMessage(error)}` }
  }
  if (!Buffer.from(again).equals(Buffer.from(bytes))) {
    return { ok: false, reason: 'the transaction is not canonically encoded' }
  }
  return { ok: true, tx }
}

/** The address of the transaction's origin (its signer) on a network. */
export function originAddress(
  tx: StacksTransactionWire,
  network: StacksNetworkName | StacksNetwork
) {
  const condition = tx.auth.spendingCondition
  return addressToString(
    addressFromVersionHash(addressHashModeToVersion(condition.hashMode, network), condition.signer)
  )
}

/** The message of whatever was thrown. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
