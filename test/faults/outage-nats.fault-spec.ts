import { OUTAGE_CASE_TIMEOUT_MS, describeOutage } from './support/outage-suite';

jest.setTimeout(OUTAGE_CASE_TIMEOUT_MS);

describeOutage('NATS');
