import { QueryClient } from '@tanstack/react-query';
import { ApiFailure } from './request';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 60_000,
      refetchOnWindowFocus: false,
      // A refused answer (bad credential, no access) will not change on retry; a network failure may.
      retry: (count, error) => !(error instanceof ApiFailure && error.result.status > 0) && count < 2,
    },
  },
});
