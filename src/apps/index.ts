/**
 * OpenShift's apps helpers, once (what library-go `appsutil` is to openshift-controller-manager,
 * the deployer and `oc`): every part of dcctl reads DCs and RCs through this module.
 */
export * from './config.js';
export * from './defaults.js';
export * from './deployment.js';
export { MaxVersion } from './rc-version.js';
export * from './template-probe.js';
export * from './time.js';
