import { type OperationId, ROUTES } from '@portal/contracts';

/** The parts of a JSON schema in the server's OpenAPI document that the input tests read. */
export interface JsonSchema {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

export interface OpenApiParameter {
  in: 'query' | 'path' | 'header';
  name: string;
  required?: boolean;
  schema?: JsonSchema;
}

export interface OpenApiOperation {
  operationId?: string;
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, unknown>;
}

export interface OpenApiDoc {
  openapi: string;
  paths: Record<string, Record<string, OpenApiOperation>>;
}

/** Every operation of the document with its operationId (each one is in the contracts' route table). */
export function operationsOf(doc: OpenApiDoc): { op: OperationId; operation: OpenApiOperation }[] {
  return Object.values(doc.paths).flatMap((methods) =>
    Object.values(methods).map((operation) => {
      const op = operation.operationId as OperationId;
      if (!(op in ROUTES)) throw new Error(`operation ${String(op)} is not in ROUTES`);
      return { op, operation };
    }),
  );
}
