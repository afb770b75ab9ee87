export { ERROR_CATALOGUE, START_ERROR_CATALOGUE, type ErrorCode, type StartErrorCode } from './error-codes';
export { formatErrorMessage, templateParameters, type ErrorParams } from './error-message';
export { GATEWAY_ERROR_MARK, GatewayError, gatewayError, isGatewayError, type ErrorDetail, type GatewayErrorOptions } from './gateway-error';
export { durationText } from './duration-text';
