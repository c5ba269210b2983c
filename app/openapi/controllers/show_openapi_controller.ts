import { inject } from '@adonisjs/core'
import { OpenApiDocument } from '#openapi/openapi_document'

/** GET /openapi.json: the API described from the router (app/openapi/openapi_document.ts). */
@inject()
export default class ShowOpenApiController {
  constructor(private document: OpenApiDocument) {}

  handle() {
    return this.document.json
  }
}
