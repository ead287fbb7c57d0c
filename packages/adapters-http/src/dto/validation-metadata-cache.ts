import { getMetadataStorage } from 'class-validator';

type ValidationMetadata = Parameters<ReturnType<typeof getMetadataStorage>['addValidationMetadata']>[0];

let installed = false;

/**
 * class-validator looks a class's checks up afresh for every object it validates, walking every class registered
 * for those it inherits, and groups them by member again: about a third of the time it took to validate a batch
 * item. They change only when a check is registered (a module with DTOs loading), which empties this cache, so a
 * class loaded later is still seen whole. Neither the lists nor the groups are changed by their readers.
 */
export function cacheValidationMetadata(): void {
  if (installed) return;
  installed = true;
  const storage = getMetadataStorage();
  const lookUp = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);
  const addCheck = storage.addValidationMetadata.bind(storage);
  let lists = new Map<unknown, Map<string, ValidationMetadata[]>>();
  let groups = new WeakMap<ValidationMetadata[], Record<string, ValidationMetadata[]>>();
  storage.addValidationMetadata = (metadata) => {
    lists = new Map();
    groups = new WeakMap();
    addCheck(metadata);
  };
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, wanted) => {
    const key = JSON.stringify([schema, always, strictGroups, wanted]);
    let ofTarget = lists.get(target);
    if (!ofTarget) lists.set(target, (ofTarget = new Map<string, ValidationMetadata[]>()));
    let list = ofTarget.get(key);
    if (!list) ofTarget.set(key, (list = lookUp(target, schema, always, strictGroups, wanted)));
    return list;
  };
  storage.groupByPropertyName = (metadata) => {
    let grouped = groups.get(metadata);
    if (!grouped) groups.set(metadata, (grouped = group(metadata)));
    return grouped;
  };
}
