/**
 * Error responses: every error the emulator sends uses the analytics error body
 * `{ title, detail, status, requestId }` (the spec leaves other endpoints' bodies open).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** An error a route throws to answer with a status and a detail message. */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(detail);
  }
}

/** Shorthand for a 400 naming the parameter, the value and the rule. */
export function badRequest(parameter: string, value: unknown, rule: string): HttpProblem {
  const shown = value === undefined ? '(missing)' : JSON.stringify(value);
  return new HttpProblem(
    400,
    `${parameter} ${shown.length > 80 ? `${shown.slice(0, 77)}...` : shown} is invalid: ${rule}`,
  );
}

/** Sends the error body with `status`. */
export function sendProblem(request: FastifyRequest, reply: FastifyReply, status: number, detail: string) {
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send({ title: TITLES[status] ?? 'Error', detail, status, requestId: String(request.id) });
}
