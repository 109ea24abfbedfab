import { ScaledObject } from '@kubernetes-models/keda/keda.sh/v1alpha1';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Namespace, PersistentVolumeClaim, Service } from 'kubernetes-models/v1';
import type { K8sObject } from './render.js';

interface Model {
  validate(): void;
}
type ModelClass = new (data: never) => Model;

/** Every kind k8s/ may render, by apiVersion and kind; anything else is an error. */
const MODELS: Record<string, ModelClass> = {
  'v1/Namespace': Namespace,
  'v1/ConfigMap': ConfigMap,
  'v1/Service': Service,
  'v1/PersistentVolumeClaim': PersistentVolumeClaim,
  'apps/v1/Deployment': Deployment,
  'apps/v1/StatefulSet': StatefulSet,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'keda.sh/v1alpha1/ScaledObject': ScaledObject,
};

/** Validates one object against the Kubernetes (or KEDA) schema; returns the problem, or undefined. */
export function schemaProblem(object: K8sObject): string | undefined {
  const Model = MODELS[`${object.apiVersion}/${object.kind}`];
  if (!Model) return `${object.apiVersion} ${object.kind} has no schema here (add its model to test/k8s/models.ts)`;
  try {
    new Model(object as never).validate();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}
