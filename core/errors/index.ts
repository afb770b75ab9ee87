export { ERROR_CATALOGUE, type ErrorCode } from './error-codes';
export { GatewayError, isGatewayError, type ErrorDetail, type GatewayErrorOptions } from './gateway-error';
