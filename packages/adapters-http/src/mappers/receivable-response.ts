import { receivableView, type Receivable } from '@rcs/domain';

/** The wire shape of a receivable: the same view its events carry. */
export const receivableResponse = (receivable: Receivable) => receivableView(receivable.toSnapshot());
