import type { ApplicationService } from '@adonisjs/core/types'
import { ChainConfig } from '#chain/define_config'
import { PlatformWallet } from '#chain/platform_wallet'
import { OpenApiDocument } from '#openapi/openapi_document'

/**
 * Binds the OpenAPI document as a singleton: GET /openapi.json and /docs/api
 * serve the one document it builds from the committed router.
 */
export default class OpenApiProvider {
  constructor(protected app: ApplicationService) {}

  register() {
    this.app.container.singleton(OpenApiDocument, async (resolver) => {
      return new OpenApiDocument(
        await resolver.make(PlatformWallet),
        await resolver.make(ChainConfig)
      )
    })
  }
}
