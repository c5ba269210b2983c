import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { LlmsTxt } from '#discovery/llms_txt'

@inject()
export default class ShowLlmsTxtController {
  constructor(private llmsTxt: LlmsTxt) {}

  handle({ response }: HttpContext) {
    response.header('content-type', 'text/plain; charset=utf-8')
    return this.llmsTxt.text()
  }
}
