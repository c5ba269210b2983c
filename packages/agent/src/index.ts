export {
  createClient,
  feedUrl,
  type Client,
  type ClientOptions,
  type Purchase,
  type Signer,
  type Spending,
  type UnknownPayment,
} from './client.ts'
export type { Feed, FeedFilter } from './discovery.ts'
export {
  AgentError,
  MalformedPaymentRequiredError,
  NetworkMismatchError,
  OverCapError,
  PaidWithoutDataError,
  PayToNotAllowedError,
  PendingError,
  RefusedError,
  UnreachableError,
} from './errors.ts'
export type { FieldError, Receipt } from './errors.ts'
export { NETWORK_IDS, type NetworkName, type PaymentRequirement } from './x402.ts'
