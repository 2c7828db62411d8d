import type { RequestHandler } from 'express';
import { BadRequestError } from '../errors/domain';

export const API_VERSION = '2026-03-10';
export const SUPPORTED_API_VERSIONS = [API_VERSION] as const;
const HEADER = 'X-Service-Api-Version';

/** Whether a request's X-Service-Api-Version header is one this service answers (absent is the current one). */
export function isSupportedApiVersion(requested: string | undefined): boolean {
  return requested === undefined || (SUPPORTED_API_VERSIONS as readonly string[]).includes(requested.trim());
}

/** Spec §9 / reference.md: absent means the current version; anything else unknown is 400. */
export const apiVersion: RequestHandler = (req, res, next) => {
  res.setHeader(`${HEADER}-Selected`, API_VERSION);
  const requested = req.get(HEADER);
  if (!isSupportedApiVersion(requested)) {
    const supported = SUPPORTED_API_VERSIONS.map((v) => `"${v}"`).join(', ');
    throw new BadRequestError(
      `The version you specified in the "${HEADER}" request header, "${requested}", is not a supported version. The following versions are currently supported: ${supported}.`,
    );
  }
  next();
};
