export * from './hiro_api.js'
export * from './stacks_core_rpc.js'
