import type { OpenApiDocumentJson } from '#openapi/openapi_document'

type Json = Record<string, any>

export interface ReferenceOperation {
  /** Its HTML id, `op-…`: apart from the sections' `tag-…`. */
  id: string
  method: string
  path: string
  summary: string
  description?: string
  parameters: string[]
  bodyFields: string[]
  session: boolean
  responses: string[]
  /** The price line of a paid operation, from its `x-payment-info`. */
  payment?: string
}

/** /docs/api: the operations of /openapi.json, grouped by tag, as the page lists them. */
export function apiReference(document: OpenApiDocumentJson) {
  const groups = new Map<string, ReferenceOperation[]>()
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const tag = (operation.tags as string[] | undefined)?.[0] ?? 'other'
      groups.set(tag, [...(groups.get(tag) ?? []), referenceOf(path, method, operation)])
    }
  }
  return [...groups].map(([tag, operations]) => ({ tag, operations }))
}

function referenceOf(path: string, method: string, operation: Json): ReferenceOperation {
  const body = operation.requestBody?.content?.['application/json']?.schema
  const required = new Set<string>(body?.required ?? [])
  return {
    id: `op-${String(operation.operationId).replace(/[^\w-]/g, '-')}`,
    method: method.toUpperCase(),
    path,
    summary: operation.summary,
    description: operation.description,
    parameters: ((operation.parameters ?? []) as Json[]).map((parameter) =>
      parameter.$ref
        ? `${parameter.$ref.split('/').pop()} (header)`
        : `${parameter.name} (${parameter.in}${parameter.required ? ', required' : ''})`
    ),
    bodyFields: Object.keys(body?.properties ?? {}).map((name) =>
      required.has(name) ? `${name} (required)` : name
    ),
    session:
      (operation.security as Json[] | undefined)?.some((scheme) => 'bearer' in scheme) ?? false,
    responses: Object.keys(operation.responses ?? {}),
    payment: paymentLine(operation['x-payment-info']),
  }
}

function paymentLine(info: Json | undefined) {
  if (!info) return undefined
  const { network, payTo } = info.protocols[0].x402
  const terms = `x402 v2, exact, STX on ${network} to ${payTo}`
  return info.price.mode === 'fixed'
    ? `${info.price.amount} STX per call (${terms})`
    : `${info.description} (${terms})`
}
