import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { OpenApiDocument } from '#openapi/openapi_document'
import { apiReference } from '#web/api_reference'

/** /docs/api: the API reference, rendered from the document /openapi.json serves. */
@inject()
export default class ShowApiReferencePageController {
  constructor(private document: OpenApiDocument) {}

  handle({ view }: HttpContext) {
    return view.render('pages/docs/api', {
      groups: apiReference(this.document.json),
    })
  }
}
