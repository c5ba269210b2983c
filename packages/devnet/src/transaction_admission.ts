import { ChainId, TransactionVersion } from '@stacks/network'
import {
  AnchorMode,
  AuthType,
  BytesReader,
  PayloadType,
  PostConditionMode,
  addressFromVersionHash,
  addressHashModeToVersion,
  addressToString,
  deserializeTransaction,
  isTokenTransferPayload,
  txidFromData,
  type StacksTransactionWire,
} from '@stacks/transactions'
import type { TransferTx } from './chain_state.js'
import { isTestnetPrincipal } from './principals.js'

/**
 * The mempool admission rules of a stacks-node, applied to one submitted
 * transaction. Pure: it reads the chain through `AdmissionView` and decides;
 * the caller applies the outcome.
 *
 * Reasons and `reason_data` follow stacks-core's `MemPoolRejection::into_json`.
 * Several of them (TooMuchChaining, ConflictingNonceInMempool,
 * BadTransactionVersion, TransferRecipientCannotEqualSender,
 * TransferAmountMustBePositive) are missing from the `TxRejectedReason` enum
 * of @stacks/transactions 7.6 although nodes send them, hence the local union.
 */
export type RejectionReason =
  | 'Deserialization'
  | 'BadTransactionVersion'
  | 'SignatureValidation'
  | 'ServerFailureOther'
  | 'BadAddressVersionByte'
  | 'TransferRecipientCannotEqualSender'
  | 'TransferAmountMustBePositive'
  | 'FeeTooLow'
  | 'BadNonce'
  | 'TooMuchChaining'
  | 'ConflictingNonceInMempool'
  | 'NotEnoughFunds'

export interface Rejection {
  /** Hex, no 0x prefix, as stacks-node reports it. */
  txid: string
  reason: RejectionReason
  /** Absent where stacks-node sends none (ConflictingNonceInMempool). */
  reason_data?: Record<string, string | number | boolean>
}

export type AdmissionResult =
  | { outcome: 'accepted'; tx: TransferTx; replaces: string | null }
  | { outcome: 'duplicate'; txid: string }
  | { outcome: 'rejected'; rejection: Rejection }

/** What admission needs to know about the chain and its mempool. */
export interface AdmissionView {
  isKnown(txid: string): boolean
  nextNonce(principal: string): bigint
  balanceOf(principal: string): bigint
  pendingFrom(principal: string): readonly TransferTx[]
}

/** stacks-core's MAXIMUM_MEMPOOL_TX_CHAINING. */
export const MAX_NONCE_CHAINING = 25n
/** stacks-core's MINIMUM_TX_FEE_RATE_PER_BYTE, in µSTX. */
export const MIN_FEE_RATE_PER_BYTE = 1n

const MEMO_LENGTH = 34

export function admitTransaction(view: AdmissionView, bytes: Uint8Array): AdmissionResult {
  const txid = txidFromData(bytes)
  const reject = (reason: RejectionReason, data?: Rejection['reason_data']): AdmissionResult => ({
    outcome: 'rejected',
    rejection: data ? { txid, reason, reason_data: data } : { txid, reason },
  })

  const wire = deserialize(bytes)
  if (typeof wire === 'string') return reject('Deserialization', { message: wire })

  if (view.isKnown(txid)) return { outcome: 'duplicate', txid }

  if (wire.transactionVersion !== TransactionVersion.Testnet) {
    return reject('BadTransactionVersion', {
      message: `transaction version 0x${wire.transactionVersion.toString(16).padStart(2, '0')} is not this chain's 0x80 (testnet)`,
    })
  }
  // stacks-node reports a foreign chain id as a failed validation
  // (process_transaction_precheck -> FailedToValidate -> "SignatureValidation").
  if (wire.chainId !== ChainId.Testnet) {
    return reject('SignatureValidation', {
      message: `invalid chain ID ${wire.chainId} (expected ${ChainId.Testnet})`,
    })
  }

  try {
    wire.verifyOrigin()
  } catch (error) {
    return reject('SignatureValidation', {
      message: `origin signature does not verify: ${messageOf(error)}`,
    })
  }

  const payload = wire.payload
  if (!isTokenTransferPayload(payload)) {
    return reject('ServerFailureOther', {
      message: `the devnet only supports STX token transfers, not ${payloadTypeName(payload.payloadType)} transactions`,
    })
  }
  if (wire.auth.authType !== AuthType.Standard) {
    return reject('ServerFailureOther', {
      message: 'the devnet does not support sponsored transactions',
    })
  }

  const condition = wire.auth.spendingCondition
  const sender = addressToString(
    addressFromVersionHash(
      addressHashModeToVersion(condition.hashMode, 'testnet'),
      condition.signer
    )
  )
  const recipient = payload.recipient.value
  if (!isTestnetPrincipal(recipient)) {
    return reject('BadAddressVersionByte', {
      message: `recipient ${recipient} is not a testnet address`,
    })
  }
  if (recipient === sender) {
    return reject('TransferRecipientCannotEqualSender', { recipient })
  }
  if (payload.amount <= 0n) {
    return reject('TransferAmountMustBePositive', { message: 'transfer amount must be positive' })
  }

  const fee = condition.fee
  const minimumFee = BigInt(bytes.length) * MIN_FEE_RATE_PER_BYTE
  if (fee < minimumFee) {
    return reject('FeeTooLow', { expected: Number(minimumFee), actual: Number(fee) })
  }

  const nonce = condition.nonce
  const nextNonce = view.nextNonce(sender)
  if (nonce < nextNonce) {
    return reject('BadNonce', {
      expected: Number(nextNonce),
      actual: Number(nonce),
      principal: sender,
      is_origin: true,
    })
  }
  const maxNonce = nextNonce + MAX_NONCE_CHAINING
  if (nonce > maxNonce) {
    // stacks-node names these `expected`/`actual`; `max_nonce`/`actual_nonce`
    // are the same values under the names of its Rust struct.
    return reject('TooMuchChaining', {
      message: 'Nonce would exceed chaining limit in mempool',
      expected: Number(maxNonce),
      actual: Number(nonce),
      max_nonce: Number(maxNonce),
      actual_nonce: Number(nonce),
      principal: sender,
      is_origin: true,
    })
  }

  const pending = view.pendingFrom(sender)
  const conflicting = pending.find((other) => other.nonce === nonce)
  if (conflicting && fee <= conflicting.fee) return reject('ConflictingNonceInMempool')
  const replaces = conflicting ? conflicting.txid : null

  const committed = pending
    .filter((other) => other.txid !== replaces)
    .reduce((sum, other) => sum + other.amount + other.fee, 0n)
  const balance = view.balanceOf(sender)
  const spendable = balance > committed ? balance - committed : 0n
  const needed = payload.amount + fee
  if (needed > spendable) {
    return reject('NotEnoughFunds', { expected: hexU128(needed), actual: hexU128(spendable) })
  }

  return {
    outcome: 'accepted',
    replaces,
    tx: {
      txid,
      raw: bytes,
      sender,
      recipient,
      amount: payload.amount,
      fee,
      nonce,
      memoHex: Buffer.from(bytes.subarray(bytes.length - MEMO_LENGTH)).toString('hex'),
      anchorMode: anchorModeName(wire.anchorMode),
      postConditionMode: postConditionModeName(wire.postConditionMode),
    },
  }
}

/**
 * What a stacks-node deserializes: exactly one transaction, nothing missing,
 * nothing after it, and re-encoding gives the same bytes (the txid is the
 * hash of the submitted bytes). Returns the reason when it is not.
 */
function deserialize(bytes: Uint8Array): StacksTransactionWire | string {
  if (bytes.length === 0) return 'the transaction is empty'
  const reader = new BytesReader(bytes)
  let wire: StacksTransactionWire
  try {
    wire = deserializeTransaction(reader)
  } catch (error) {
    return `the transaction does not decode: ${messageOf(error)}`
  }
  if (reader.consumed > bytes.length) return 'the transaction is truncated'
  if (reader.consumed < bytes.length) {
    return `${bytes.length - reader.consumed} trailing byte(s) after the transaction`
  }
  let again: Uint8Array
  try {
    again = wire.serializeBytes()
  } catch (error) {
    return `the transaction does not re-encode: ${messageOf(error)}`
  }
  if (!Buffer.from(again).equals(Buffer.from(bytes))) {
    return 'the transaction is not canonically encoded'
  }
  return wire
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** How stacks-node renders u128 amounts in NotEnoughFunds: 0x + 32 hex digits. */
export function hexU128(value: bigint): string {
  return `0x${value.toString(16).padStart(32, '0')}`
}

function anchorModeName(mode: AnchorMode): TransferTx['anchorMode'] {
  if (mode === AnchorMode.OnChainOnly) return 'on_chain_only'
  if (mode === AnchorMode.OffChainOnly) return 'off_chain_only'
  return 'any'
}

function postConditionModeName(mode: PostConditionMode): TransferTx['postConditionMode'] {
  if (mode === PostConditionMode.Allow) return 'allow'
  if (mode === PostConditionMode.Originator) return 'originator'
  return 'deny'
}

function payloadTypeName(type: PayloadType): string {
  const names: Record<number, string> = {
    [PayloadType.SmartContract]: 'smart_contract',
    [PayloadType.VersionedSmartContract]: 'smart_contract',
    [PayloadType.ContractCall]: 'contract_call',
    [PayloadType.PoisonMicroblock]: 'poison_microblock',
    [PayloadType.Coinbase]: 'coinbase',
    [PayloadType.CoinbaseToAltRecipient]: 'coinbase',
    [PayloadType.TenureChange]: 'tenure_change',
    [PayloadType.NakamotoCoinbase]: 'coinbase',
  }
  return names[type] ?? `payload type ${type}`
}
