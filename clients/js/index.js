// @go-codemode/client: the JavaScript client of `codemode serve`.
// docs/protocol.md in the repository is the wire contract it speaks.

export { connect, RemoteExecutor } from './src/executor.js'
export {
  PROTOCOL_VERSION,
  DEFAULT_TIMEOUT,
  MAX_SUPPORTED_TIMEOUT,
  PAYLOAD_LIMIT,
  CONSOLE_CAPTURE_LIMIT,
  CONSOLE_CAPTURE_MESSAGE,
  TIMEOUT_MESSAGE,
  EXECUTION_COMPLETED_MESSAGE,
  HANDLES_IDLE_TIMEOUT,
  MAX_FRAME_SIZE,
  BINARY_TAG,
} from './src/constants.js'
export { ExecutorError, ERROR_CODES, rehydrateExecutorError } from './src/errors.js'
export {
  createEnvelopeDispatch,
  parseDispatchArguments,
  stringifyForDispatch,
  parseForDispatch,
  decodeDispatchValue,
  parseEnvelope,
  resultEnvelope,
  errorEnvelope,
} from './src/codec.js'
export {
  validateProviders,
  RESERVED_PROVIDER_NAMES,
  JAVASCRIPT_RESERVED_WORDS,
  PROVIDER_NAME_PATTERN,
} from './src/providers.js'
