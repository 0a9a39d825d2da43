import * as OpenApiValidator from "express-openapi-validator";

export interface SpecValidatorOptions {
  /** The OpenAPI document requests (and, with `validateResponses`, responses) must match. */
  readonly specPath: string;
  readonly validateResponses: boolean;
}

/**
 * express-openapi-validator for one spec (its middlewares, in order). Requests must match the
 * spec, unknown query parameters included. Security is not its job: the routers verify keys and
 * sessions against the database, once per request. Nor are file uploads: no operation of ours
 * takes a multipart body, so multer stays out of the chain.
 */
export function specValidator({
  specPath,
  validateResponses,
}: SpecValidatorOptions): ReturnType<typeof OpenApiValidator.middleware> {
  return OpenApiValidator.middleware({
    apiSpec: specPath,
    validateRequests: { allowUnknownQueryParameters: false },
    validateResponses,
    validateSecurity: false,
    fileUploader: false,
    validateApiSpec: true,
  });
}
