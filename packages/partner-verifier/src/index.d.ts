import type { IncomingMessage, ServerResponse } from 'node:http'

/** Seconds a request's timestamp may differ from the partner's clock: 300. */
export declare const DEFAULT_TOLERANCE_SECONDS: number

/** A raw request body; `undefined` or `null` means empty (Tollbooth's GETs). */
export type RawBody = string | Uint8Array | null | undefined

/** The HMAC key K: SHA-256 of the secret string (32 bytes). */
export declare function deriveKey(secret: string): Buffer

export interface StringToSignInput {
  method: string
  /** As in the HTTP request line (`/v1/prices?symbol=BTC`); a full URL is reduced to it. */
  pathAndQuery: string | URL
  timestamp: number | string
  id: string
  body?: RawBody
}

/** S = `v1\n<METHOD>\n<path and query>\n<timestamp>\n<id>\n<hex SHA-256 of body>`. */
export declare function stringToSign(input: StringToSignInput): string

export interface SignOptions {
  /** The `tbs_…` secret; or give `key` instead. */
  secret?: string
  /** K = deriveKey(secret), 32 bytes. */
  key?: Uint8Array
  method: string
  pathAndQuery: string | URL
  body?: RawBody
  /** The provider's handle, sent as X-Tollbooth-Provider. */
  provider: string
  /** Defaults to crypto.randomUUID(). */
  id?: string
  /** Unix seconds; defaults to now. */
  timestamp?: number
}

/** The four headers, with lowercase names. */
export interface TollboothHeaders {
  'x-tollbooth-id': string
  'x-tollbooth-timestamp': string
  'x-tollbooth-provider': string
  'x-tollbooth-signature': string
  [name: string]: string
}

export declare function signTollboothRequest(options: SignOptions): TollboothHeaders

/**
 * Remembers ids already accepted. `checkAndRemember` returns false when `id`
 * was seen and has not expired, otherwise remembers it until `expiresAtMs`
 * and returns true. `nowMs` is the verifier's clock (the `now` option).
 */
export interface ReplayStore {
  checkAndRemember(id: string, expiresAtMs: number, nowMs: number): boolean
}

/** A store answering asynchronously (Redis `SET key 1 NX PXAT expiresAtMs`, …). */
export interface AsyncReplayStore {
  checkAndRemember(id: string, expiresAtMs: number, nowMs: number): Promise<boolean>
}

export interface MemoryReplayStore extends ReplayStore {
  /** Ids currently remembered. */
  readonly size: number
}

export declare function createMemoryReplayStore(options?: {
  /** How often expired ids are swept; defaults to 300. */
  toleranceSeconds?: number
}): MemoryReplayStore

export type HeadersInput = Headers | Record<string, string | string[] | undefined>

export interface VerifyOptions {
  /** The `tbs_…` secret, or several (old and new) while a deploy rolls out. */
  secret?: string | string[]
  /** Instead of `secret`: K = deriveKey(secret), or several (a server that stores only K). */
  key?: Uint8Array | Uint8Array[]
  method: string
  /** The path and query from the request line, or a full URL (its pathname + search is used). */
  url: string | URL
  headers: HeadersInput
  body?: RawBody
  /** Epoch milliseconds, or a function returning them; defaults to Date.now(). */
  now?: number | (() => number)
  /** Defaults to one in-process memory store shared by the whole module. */
  replayStore?: ReplayStore | AsyncReplayStore
  /** Defaults to 300. */
  toleranceSeconds?: number
}

export interface TollboothRequestInfo {
  id: string
  provider: string
  timestamp: number
}

export type VerifyFailureReason =
  'missing_headers' | 'malformed_signature' | 'stale_timestamp' | 'bad_signature' | 'replayed'

export type VerifyResult =
  ({ ok: true } & TollboothRequestInfo) | { ok: false; reason: VerifyFailureReason }

/** Synchronous unless the replay store answers with a Promise; `await` works either way. */
export declare function verifyTollboothRequest(
  options: VerifyOptions & { replayStore?: ReplayStore }
): VerifyResult
export declare function verifyTollboothRequest(
  options: VerifyOptions
): VerifyResult | Promise<VerifyResult>

export type AdapterOptions = Omit<VerifyOptions, 'method' | 'url' | 'headers' | 'body'>

export type NodeHttpVerifyResult =
  ({ ok: true; body: Buffer } & TollboothRequestInfo) | { ok: false; reason: VerifyFailureReason }

/** Reads the body when there is one and returns it as `body` on success. */
export declare function nodeHttpVerifier(
  options: AdapterOptions
): (req: IncomingMessage) => Promise<NodeHttpVerifyResult>

export interface ExpressLikeRequest extends IncomingMessage {
  originalUrl?: string
  /** The raw body bytes, needed for requests with a body. */
  rawBody?: unknown
  tollbooth?: TollboothRequestInfo
}

/** Sets `req.tollbooth` on success, answers 401 `{"error": reason}` otherwise. */
export declare function expressMiddleware(
  options: AdapterOptions
): (req: ExpressLikeRequest, res: ServerResponse, next: (error?: unknown) => void) => void

/**
 * Sets `c.get('tollbooth')` on success, answers 401 `{"error": reason}`
 * otherwise. The context is typed loosely so that this package does not
 * depend on Hono's types.
 */
export declare function honoMiddleware(
  options: AdapterOptions
): (c: any, next: () => Promise<void>) => Promise<Response | void>
