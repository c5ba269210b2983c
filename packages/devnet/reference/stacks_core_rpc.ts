/**
 * The stacks-node RPC answers the chain client reads, as stacks-core documents
 * them in its RPC OpenAPI document (docs/rpc/openapi.yaml and
 * docs/rpc/components/{schemas,examples}, stacks-network/stacks-core at
 * 1efa4a9bf6bd0f670ac10d1f5a5f24491b7a827a). stacks-core publishes no
 * TypeScript types, so the documented required fields and their JSON types
 * are carried over here, with the document's example answers.
 */

export type JsonType = 'string' | 'integer' | 'boolean' | 'object' | 'array' | 'null'

/** A documented field: its JSON types (several when nullable) and whether the answer must have it. */
export interface FieldSpec {
  types: readonly JsonType[]
  required: boolean
  /** A documented lower bound for an integer. */
  minimum?: number
}

export type ObjectSpec = Record<string, FieldSpec>

const required = (...types: JsonType[]): FieldSpec => ({ types, required: true })
const optional = (...types: JsonType[]): FieldSpec => ({ types, required: false })
const count = (): FieldSpec => ({ types: ['integer'], required: true, minimum: 0 })

/** GET /v2/accounts/{principal} (AccountData: no other field allowed). */
export const accountDataSpec: ObjectSpec = {
  balance: required('string'),
  locked: required('string'),
  unlock_height: count(),
  nonce: count(),
  balance_proof: optional('string'),
  nonce_proof: optional('string'),
}

/** GET /v2/info (NodeInfo). */
export const nodeInfoSpec: ObjectSpec = {
  peer_version: required('integer'),
  pox_consensus: required('string'),
  burn_block_height: required('integer'),
  stable_pox_consensus: required('string'),
  stable_burn_block_height: required('integer'),
  server_version: required('string'),
  network_id: required('integer'),
  parent_network_id: required('integer'),
  stacks_tip_height: required('integer'),
  stacks_tip: required('string'),
  stacks_tip_consensus_hash: required('string'),
  genesis_chainstate_hash: required('string'),
  tenure_height: required('integer'),
  is_fully_synced: required('boolean'),
  unanchored_tip: required('string', 'null'),
  unanchored_seq: required('integer', 'null'),
  exit_at_block_height: required('integer', 'null'),
  node_public_key: optional('string', 'null'),
  node_public_key_hash: optional('string', 'null'),
  last_pox_anchor: optional('object', 'null'),
  stackerdbs: optional('array', 'null'),
}

/**
 * POST /v2/transactions, 400 as JSON (TransactionSubmissionError). The other
 * documented 400 is text/plain: a body the node could not decode.
 */
export const transactionSubmissionErrorSpec: ObjectSpec = {
  error: required('string'),
  reason: required('string'),
  reason_data: optional('object'),
  txid: required('string'),
}

/** POST /v2/transactions, 200: the accepted transaction's id, a JSON string. */
export const ACCEPTED_TXID = /^[0-9a-f]{64}$/

/** GET /v2/fees/transfer, 200: µSTX per byte, a JSON integer. */
export const MINIMUM_TRANSFER_FEE_RATE = 1

/** The document's example answers (docs/rpc/components/examples/*.example.json). */
export const stacksCoreExamples = {
  accountData: {
    balance: '0x0000000000000000000000000007a120',
    locked: '0x0000000000000000000000000007a120',
    unlock_height: 126,
    nonce: 2867,
    balance_proof: '0xabce',
    nonce_proof: '0xabcd',
  },
  nodeInfo: {
    peer_version: 385875968,
    pox_consensus: '17f76e597bab45646956f38dd39573085d72cbc0',
    burn_block_height: 16,
    stable_pox_consensus: '8e0561978fc5506b68a589c402dad97e862edb59',
    stable_burn_block_height: 15,
    server_version:
      'stacks-node 3.1.0.0.12 (release/3.1.0.0.12:ae969ca+, release build, linux [x86_64])',
    network_id: 1,
    parent_network_id: 3652501241,
    stacks_tip_height: 1832097,
    stacks_tip: 'b1807a2d3f7f8c7922f7c1d60d7c34145ade05d789640dc7dc9ec1021e07bb54',
    stacks_tip_consensus_hash: '17f76e597bab45646956f38dd39573085d72cbc0',
    genesis_chainstate_hash: '74237aa39aa50a83de11a4f3e9a0b9c89a0b1a2f2a6a11b8a7e1e9a0b1c2d3e4f',
    unanchored_tip: '0000000000000000000000000000000000000000000000000000000000000000',
    tenure_height: 523,
    exit_at_block_height: null,
    is_fully_synced: false,
    node_public_key: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef01',
    node_public_key_hash: '1328af7c4f96eee8fdbb1e023e48ba11e255d1c8',
    last_pox_anchor: {
      anchor_block_hash: '47c20352492e1647127d6f6275fa5abfe90157f6a64e6a175ff45ed0c1fb3f4e',
      anchor_block_txid: '5b5d678c658525122fa73a8699b5810325ce9412bf0dc3762fb7518699be3d4d',
    },
    stackerdbs: [],
  },
  transactionSubmissionError: {
    error: 'transaction rejected',
    reason: 'BadNonce',
    reason_data: {
      actual: 4,
      expected: 0,
      is_origin: true,
      principal: 'ST2ZRX0K27GW0SP3GJCEMHD95TQGJMKB7G9Y0X1MH',
    },
    txid: 'caf6fd60ae05b0c2d19ef14ab6a7670b1095d117fa7c80224c74e76214d0a791',
  },
  /** The text/plain 400 of a transaction the node cannot decode. */
  undecodableTransaction: 'Failed to decode transaction',
  acceptedTxid: 'e161978626f216b2141b156ade10501207ae535fa365a13ef5d7a7c9310a09f2',
  transferFeeRate: 3,
}

/**
 * What in `value` breaks `spec`: a missing required field, a field of another
 * JSON type, an integer under its minimum, and (`closed`) a field the
 * document does not name. Empty when the answer is as documented.
 */
export function shapeProblems(spec: ObjectSpec, value: unknown, { closed = false } = {}): string[] {
  if (jsonType(value) !== 'object') return [`expected an object, got ${jsonType(value)}`]
  const record = value as Record<string, unknown>
  const problems: string[] = []
  for (const [name, field] of Object.entries(spec)) {
    if (!Object.hasOwn(record, name)) {
      if (field.required) problems.push(`${name}: missing`)
      continue
    }
    const type = jsonType(record[name])
    if (!(field.types as readonly string[]).includes(type)) {
      problems.push(`${name}: ${type}, documented as ${field.types.join(' or ')}`)
    } else if (field.minimum !== undefined && (record[name] as number) < field.minimum) {
      problems.push(`${name}: below the documented minimum ${field.minimum}`)
    }
  }
  if (closed) {
    for (const name of Object.keys(record)) {
      if (!Object.hasOwn(spec, name)) problems.push(`${name}: not a documented field`)
    }
  }
  return problems
}

export function jsonType(value: unknown): JsonType | 'number' | 'undefined' {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
  return typeof value as JsonType | 'undefined'
}
