import { describeEnvClientConformance } from './conformance.js';

describeEnvClientConformance('ws');
