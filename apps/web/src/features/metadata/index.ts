/** The metadata filter builder shared by the assistant, search-app and agent settings and retrieval testing. */
export { MetadataFilterBuilder, type MetadataFilterBuilderProps } from './MetadataFilterBuilder';
export { MetadataFilterField } from './MetadataFilterField';
export { draftOf, draftProblem, filterOf } from './filter-state';
