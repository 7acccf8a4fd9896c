import type { InterfaceResultsEnvelope } from '../api/types.js';
import { licenceOf } from './keys.js';
import { jsonResponse, RESULTS_UNAUTHORIZED_BODY, type SandboxResponse, validationResponse } from './responses.js';
import type { ResultsDataset } from './results-dataset.js';
import { parseResultsQuery } from './results-query.js';
import { RecordBuilder } from './results-record.js';
import { ResultsIndex } from './results-search.js';
import { INTERFACE_VOCABULARY } from './vocabulary.js';

/** GET /api/v1/fee-schedule-results: the key (401), the query (422), then the page. */
export class ResultsRoute {
  private readonly index: ResultsIndex;
  private readonly records: RecordBuilder;

  constructor(dataset: ResultsDataset) {
    this.index = new ResultsIndex(dataset, INTERFACE_VOCABULARY);
    this.records = new RecordBuilder(dataset);
  }

  serve(params: URLSearchParams, key: string | undefined, startedAt: number): SandboxResponse {
    const licence = licenceOf(key);
    if (licence === undefined) return jsonResponse(401, RESULTS_UNAUTHORIZED_BODY);
    const parsed = parseResultsQuery(params, licence.venues, INTERFACE_VOCABULARY);
    if ('issues' in parsed) return validationResponse(parsed.issues);
    const { search } = parsed;
    const slice = this.index.slice(search);
    const page: InterfaceResultsEnvelope = {
      success: true,
      message: 'Fee schedule results retrieved successfully.',
      data: slice.indexes.map((index) => this.records.build(index)),
      total_records: slice.totalRecords,
      page_size: search.pageSize,
      total_pages: Math.ceil(slice.totalRecords / search.pageSize),
      current_page: search.pageNumber,
      query_time: Number(((performance.now() - startedAt) / 1000).toFixed(6)),
      disable_jsonable_encoder: false,
    };
    return jsonResponse(200, page);
  }
}
