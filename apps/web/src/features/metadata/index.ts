/** The metadata filter builder shared by the assistant settings and the search app settings. */
export { MetadataFilterBuilder, type MetadataFilterBuilderProps } from './MetadataFilterBuilder';
export { draftOf, draftProblem, filterOf } from './filter-state';
