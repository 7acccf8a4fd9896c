import { type FieldSpec, RESULT_FIELDS } from '../api/fields.js';
import { RECORD_ID_FIELDS, type ServiceShape } from '../api/record-id.js';
import { isJsonObject } from '../core/json-object.js';
import { UsageError } from '../core/errors.js';

/** The tap's one stream: the results endpoint's records. */
export const STREAM = 'fee_schedule_results';

/**
 * The field the bookmark moves along, per shape. 2026 records carry no created_on: the tap then
 * goes by the service's created_on order and the ids at the cursor alone, as a sync of a 2026
 * mirror does (docs/pipelines.md), so there is no field to name.
 */
export const REPLICATION_KEY: Readonly<Record<ServiceShape, string | undefined>> = { interface: 'created_on', '2026': undefined };

type JsonSchema = Record<string, unknown>;

/** A field's JSON Schema: its type, `null` beside it when nullable, RFC 3339 `date-time` for a timestamp. */
function fieldSchema(field: FieldSpec): JsonSchema {
  const type = field.kind === 'integer' ? 'integer' : field.kind === 'json' ? 'object' : 'string';
  const schema: JsonSchema = { type: field.nullable ? [type, 'null'] : type };
  if (field.kind === 'timestamp_utc' || field.kind === 'timestamp_local') schema.format = 'date-time';
  return schema;
}

/** The JSON Schema of the records of a shape, for these fields of its declared set. */
export function recordSchema(fields: readonly FieldSpec[]): JsonSchema {
  return { type: 'object', properties: Object.fromEntries(fields.map((field) => [field.name, fieldSchema(field)])) };
}

/** Fields the tap always sends, selected or not: the key and the replication key. */
function automaticFields(shape: ServiceShape): readonly string[] {
  const key = REPLICATION_KEY[shape];
  return key === undefined ? [RECORD_ID_FIELDS[shape]] : [RECORD_ID_FIELDS[shape], key];
}

/** `--discover`'s answer: the catalog of the one stream, in the records' shape. */
export function discoveredCatalog(shape: ServiceShape): JsonSchema {
  const fields = RESULT_FIELDS[shape];
  const key = REPLICATION_KEY[shape];
  const automatic = automaticFields(shape);
  const streamMetadata: JsonSchema = {
    inclusion: 'available',
    'selected-by-default': true,
    'table-key-properties': [RECORD_ID_FIELDS[shape]],
    'valid-replication-keys': key === undefined ? [] : [key],
    'forced-replication-method': 'INCREMENTAL',
    ...(key === undefined ? {} : { 'replication-key': key }),
  };
  return {
    streams: [
      {
        tap_stream_id: STREAM,
        stream: STREAM,
        schema: recordSchema(fields),
        key_properties: [RECORD_ID_FIELDS[shape]],
        metadata: [
          { breadcrumb: [], metadata: streamMetadata },
          ...fields.map((field) => ({
            breadcrumb: ['properties', field.name],
            metadata: automatic.includes(field.name) ? { inclusion: 'automatic' } : { inclusion: 'available', 'selected-by-default': true },
          })),
        ],
      },
    ],
  };
}

/**
 * What a catalog (`--catalog`) selects: whether the stream is, and the fields it leaves out.
 * A node is selected by its `selected`, or when that is absent by its `selected-by-default`
 * (true for every node `--discover` writes); fields of `inclusion: automatic` are always sent.
 */
export interface Selection {
  streamSelected: boolean;
  /** Field names the catalog deselected. */
  deselected: ReadonlySet<string>;
}

/** Everything: a run without a catalog. */
export const SELECT_ALL: Selection = { streamSelected: true, deselected: new Set() };

function isSelected(metadata: Record<string, unknown>, byDefault: boolean): boolean {
  if (typeof metadata.selected === 'boolean') return metadata.selected;
  if (typeof metadata['selected-by-default'] === 'boolean') return metadata['selected-by-default'];
  return byDefault;
}

/** The selection of a catalog file's JSON, or a usage error naming `file` when it is no Singer catalog. */
export function selectionOf(catalog: unknown, file: string): Selection {
  const notACatalog = (why: string) => new UsageError(`${file} is not a Singer catalog: ${why}`, { hint: 'Write one with `mkt tap --discover --config FILE > catalog.json`.' });
  if (!isJsonObject(catalog) || !Array.isArray(catalog.streams)) throw notACatalog('it needs a "streams" list');
  const entry = catalog.streams.find((stream) => isJsonObject(stream) && (stream.tap_stream_id ?? stream.stream) === STREAM);
  // A catalog without the stream selects nothing, as a Singer tap syncs only the streams it lists.
  if (entry === undefined) return { streamSelected: false, deselected: new Set() };
  const metadata = (entry as Record<string, unknown>).metadata ?? [];
  if (!Array.isArray(metadata)) throw notACatalog(`the metadata of ${STREAM} is not a list`);
  let streamSelected = false;
  const deselected = new Set<string>();
  for (const item of metadata) {
    if (!isJsonObject(item) || !Array.isArray(item.breadcrumb) || !isJsonObject(item.metadata)) {
      throw notACatalog(`each metadata entry of ${STREAM} needs a "breadcrumb" list and a "metadata" object`);
    }
    const [kind, field, ...rest] = item.breadcrumb as unknown[];
    if (kind === undefined) streamSelected = isSelected(item.metadata, false);
    else if (kind === 'properties' && typeof field === 'string' && rest.length === 0 && item.metadata.inclusion !== 'automatic' && !isSelected(item.metadata, true)) {
      deselected.add(field);
    }
  }
  return { streamSelected, deselected };
}

/** The fields of a shape a selection sends, in the shape's order: the automatic ones whatever it says. */
export function selectedFields(shape: ServiceShape, selection: Selection): readonly FieldSpec[] {
  const automatic = automaticFields(shape);
  return RESULT_FIELDS[shape].filter((field) => automatic.includes(field.name) || !selection.deselected.has(field.name));
}
