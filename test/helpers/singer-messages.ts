import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { expect } from 'vitest';

// ajv-formats is CommonJS: TypeScript types its default import as the module object, whose `default` is the function; at run time it may be either.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv) => Ajv;

export interface SingerRecordMessage {
  type: 'RECORD';
  stream: string;
  record: Record<string, unknown>;
  time_extracted: string;
}

export interface SingerStateValue {
  bookmarks: { fee_schedule_results: { created_on: string | null; ids_at_cursor: string[] } };
}

export interface SingerRun {
  schemas: { stream: string; schema: object; key_properties: string[]; bookmark_properties?: string[] }[];
  records: SingerRecordMessage[];
  states: SingerStateValue[];
  /** Message types in the order written: `SCHEMA`, `RECORD`, `STATE`. */
  types: string[];
}

const RECORD_KEYS = ['record', 'stream', 'time_extracted', 'type'];

/** One compiler, and one validator for each distinct schema: compiling a schema costs more than validating many records. */
let ajv: Ajv | undefined;
const compiled = new Map<string, ValidateFunction>();
function validatorOf(schema: object): ValidateFunction {
  const text = JSON.stringify(schema);
  let validate = compiled.get(text);
  if (!validate) {
    ajv ??= addFormats(new Ajv({ strict: true, allErrors: true }));
    compiled.set(text, (validate = ajv.compile(schema)));
  }
  return validate;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Reads a tap's stdout as the Singer specification (SPEC.md) has it, failing the test at the
 * first line that breaks it: each line one JSON message; SCHEMA with `stream`, `schema` and
 * `key_properties` (each a property of the schema); RECORD with `stream` and a `record` object
 * that validates against the SCHEMA sent before it for its stream, and an RFC 3339
 * `time_extracted`; STATE with `value`. Nothing else.
 */
export function readSingerMessages(stdout: string): SingerRun {
  const validators = new Map<string, ValidateFunction>();
  const run: SingerRun = { schemas: [], records: [], states: [], types: [] };
  if (stdout !== '') expect(stdout.endsWith('\n')).toBe(true);
  for (const line of stdout.split('\n').slice(0, -1)) {
    const message = JSON.parse(line) as Record<string, unknown>;
    run.types.push(message.type as string);
    switch (message.type) {
      case 'SCHEMA': {
        expect(Object.keys(message).sort()).toEqual(['key_properties', 'schema', 'stream', 'type', ...('bookmark_properties' in message ? ['bookmark_properties'] : [])].sort());
        const schema = message.schema as { properties: Record<string, unknown> };
        for (const key of [...(message.key_properties as string[]), ...((message.bookmark_properties as string[] | undefined) ?? [])]) expect(schema.properties).toHaveProperty(key);
        validators.set(message.stream as string, validatorOf(schema));
        run.schemas.push(message as never);
        break;
      }
      case 'RECORD': {
        // The expects run only for a message that breaks a rule: one for each of thousands of records costs more than the tap.
        const keys = Object.keys(message).sort();
        if (keys.join() !== RECORD_KEYS.join()) expect(keys).toEqual(RECORD_KEYS);
        if (!RFC3339.test(message.time_extracted as string)) expect(message.time_extracted).toMatch(RFC3339);
        const validate = validators.get(message.stream as string);
        if (validate === undefined) expect(validate, 'a SCHEMA before the RECORD').toBeDefined();
        else if (!validate(message.record)) expect(false, JSON.stringify(validate.errors)).toBe(true);
        run.records.push(message as never);
        break;
      }
      case 'STATE':
        expect(Object.keys(message).sort()).toEqual(['type', 'value']);
        run.states.push(message.value as SingerStateValue);
        break;
      default:
        throw new Error(`not a Singer message: ${line}`);
    }
  }
  return run;
}
