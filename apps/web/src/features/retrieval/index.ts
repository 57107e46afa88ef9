/** The retrieval-testing tab of a knowledge base. */
export { RetrievalTestingTab } from './RetrievalTestingTab';
