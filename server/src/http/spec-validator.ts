import * as OpenApiValidator from "express-openapi-validator";

/**
 * express-openapi-validator for one spec, as both routers use it: requests must match the spec,
 * unknown query parameters included, and responses too when `validateResponses` is on (tests
 * and development). Security is not its job: the consumer router verifies keys and the admin
 * router sessions, against the database, once per request.
 */
export const specValidator = (specPath: string, validateResponses: boolean) =>
  OpenApiValidator.middleware({
    apiSpec: specPath,
    validateRequests: { allowUnknownQueryParameters: false },
    validateResponses,
    validateSecurity: false,
  });
