/**
 * Every group, kind, label, annotation, finalizer and condition name used on the wire, in one place.
 */

/** Group of our two kinds: the group JEP-0014 and upstream Jumpstarter use. */
export const GROUP = 'virtualtarget.jumpstarter.dev';
export const VERSION = 'v1alpha1';
export const API_VERSION = `${GROUP}/${VERSION}`;

/** Group of Jumpstarter's own kinds (Exporter, Lease, ExporterConfig). */
export const JUMPSTARTER_GROUP = 'jumpstarter.dev';
export const JUMPSTARTER_API_VERSION = `${JUMPSTARTER_GROUP}/${VERSION}`;

export const Kinds = {
  VirtualTargetClass: 'VirtualTargetClass',
  ExporterSet: 'ExporterSet',
  Exporter: 'Exporter',
  Lease: 'Lease',
  ExporterConfig: 'ExporterConfig',
  ExporterOperation: 'ExporterOperation',
} as const;

export const Plurals = {
  VirtualTargetClass: 'virtualtargetclasses',
  ExporterSet: 'exportersets',
  Exporter: 'exporters',
  Lease: 'leases',
  ExporterOperation: 'exporteroperations',
} as const;

export const ShortNames = {
  VirtualTargetClass: 'vtc',
  ExporterSet: 'es',
  ExporterOperation: 'eop',
} as const;

/** kubectl category: `kubectl get jumpstarter` lists every kind in it. */
export const CATEGORY = 'jumpstarter';

export const Labels = {
  /** On every Exporter, Pod and config Secret an ExporterSet creates: the set's name. */
  exporterSetName: 'exporterset.jumpstarter.dev/name',
  /** On every instance: the template revision it was created from, so outdated ones can be replaced. */
  templateRevision: 'exporterset.jumpstarter.dev/template-revision',
  /** On a standby Exporter: the custom resource only, without a Pod, so leases can select it. */
  standby: 'exporterset.jumpstarter.dev/standby',
  /** Set by Jumpstarter's controller on Leases that have ended. */
  leaseEnded: 'jumpstarter.dev/lease-ended',
  /** Recommended Kubernetes labels on the installer's objects. */
  appName: 'app.kubernetes.io/name',
  appInstance: 'app.kubernetes.io/instance',
  appComponent: 'app.kubernetes.io/component',
  appManagedBy: 'app.kubernetes.io/managed-by',
  appPartOf: 'app.kubernetes.io/part-of',
} as const;

export const Annotations = {
  /** The instance ordinal of an Exporter (`<set>-<n>`), kept so names are never reused. */
  ordinal: 'exporterset.jumpstarter.dev/ordinal',
  /** Set by an operator who disables an Exporter by hand; the controller leaves it alone. */
  manuallyDisabled: 'exporterset.jumpstarter.dev/manually-disabled',
  /**
   * Written with `spec.enabled: false` when the controller disables an instance on its way out; the
   * value says why (a {@link ScaleReason}). An Exporter disabled without it was disabled by hand.
   */
  retiring: 'exporterset.jumpstarter.dev/retiring',
  /** Written when reclaimPolicy Retain releases an instance from the set instead of deleting it. */
  retained: 'exporterset.jumpstarter.dev/retained',
  /**
   * The provisioner whose controller created the instance. When the class is switched to another
   * provisioner, the controller that made an instance still drains it.
   */
  provisioner: 'exporterset.jumpstarter.dev/provisioner',
  /**
   * For an instance a lifecycle provisioner realised: the annotation keys (comma-separated) that hold
   * its placement, written with them in one patch once the instance exists; without it the instance
   * has no placement (nothing realised, or a realise the controller never recorded).
   */
  placement: 'exporterset.jumpstarter.dev/placement',
  /**
   * The `spec.recycleRequestedAt` in effect when the controller created the instance: it was made for
   * that request, whatever its creationTimestamp says (an API server clock behind the requester's).
   */
  recycleRequestedAt: 'exporterset.jumpstarter.dev/recycle-requested-at',
  /**
   * Written by a Recycle ExporterOperation on an idle instance (the value names the operation): the
   * set replaces the instance the way a rollout replaces an outdated one (warm buffer kept).
   */
  recycleRequested: 'exporterset.jumpstarter.dev/recycle-requested',
} as const;

/** Finalizer that keeps a deleted set until the controller has drained its instances. */
export const DRAIN_FINALIZER = 'exporterset.jumpstarter.dev/drain';

/**
 * The set's condition types. The first four are upstream's, with exactly upstream's reasons, rules and
 * messages (as upstream Jumpstarter computes them), so `kubectl wait --for=condition=Available` means what it means upstream;
 * what this controller knows beyond them goes into types of its own, never into theirs.
 */
export const ConditionTypes = {
  /** Upstream: at least minReplicas instances are ready (Online); the warm buffer plays no part. */
  Available: 'Available',
  /** Upstream: Pods are pending or enabled instances are not ready yet. */
  Progressing: 'Progressing',
  /** Upstream: Pods have failed, or enabled instances are not ready while no Pod is pending. */
  Degraded: 'Degraded',
  /** Upstream: at maxReplicas with fewer than minAvailableReplicas instances available. */
  ScalingLimited: 'ScalingLimited',
  /** Ours: the warm buffer (minAvailableReplicas) is met, standbys of a WaitForFirstConsumer class included. */
  WarmBufferAvailable: 'WarmBufferAvailable',
  /** Ours: the controller is changing the pool (scaling, rolling out, draining), or why it is not. */
  Scaling: 'Scaling',
  /** Ours: no instance is failing to start, waiting for its credential, or offline while its Pod runs. */
  InstancesHealthy: 'InstancesHealthy',
  /** Ours: the spec keeps the set's own rules, so instances can be created from it. */
  SpecValid: 'SpecValid',
  /** Ours (as KubeVirt's VMIRS): an Exporter create or delete failed; the message carries the API error. */
  ReplicaFailure: 'ReplicaFailure',
  /** Ours: the class's and set's parameters, merged, are valid for the provisioner. */
  ParametersValid: 'ParametersValid',
  /** Ours: `spec.paused` is true, so nothing is created or promoted. */
  Paused: 'Paused',
  /** Ours: `maxReplicas` is 0, which means no ceiling (upstream's meaning), not "off". */
  Unbounded: 'Unbounded',
  /** Ours: `spec.pinnedRevision` names a recorded revision, which new instances are built from. */
  RevisionPinned: 'RevisionPinned',
  /**
   * Ours: the set's class was switched to another provisioner while the set ran; the message names the
   * provisioner whose controller runs the set now. Absent until a switch.
   */
  ProvisionerSwitched: 'ProvisionerSwitched',
} as const;
export type ConditionType = (typeof ConditionTypes)[keyof typeof ConditionTypes];

export const ConditionReasons = {
  // --- Available (upstream) ---
  /** Available=True: minReplicas is 0 and the set has no instance. */
  NoReplicasRequired: 'NoReplicasRequired',
  /** Available=True: readyReplicas >= minReplicas. */
  MinimumReplicasAvailable: 'MinimumReplicasAvailable',
  /** Available=False: readyReplicas < minReplicas. */
  MinimumReplicasUnavailable: 'MinimumReplicasUnavailable',
  /** Available=False (overrides the rest; ParametersValid=Unknown): the set's VirtualTargetClass does not exist. */
  VirtualTargetClassNotFound: 'VirtualTargetClassNotFound',
  // --- Progressing (upstream) ---
  /** Progressing=True: Pods are Pending. */
  PodsStarting: 'PodsStarting',
  /** Progressing=True: enabled instances are not Online (standbys excepted). */
  ReplicasNotReady: 'ReplicasNotReady',
  /** Progressing=False. */
  AllReplicasReady: 'AllReplicasReady',
  // --- Degraded (upstream) ---
  /** Degraded=True: Pods are in phase Failed. */
  PodsFailing: 'PodsFailing',
  /** Degraded=True: enabled instances are not Online (standbys excepted) and no Pod is Pending. */
  ExportersOffline: 'ExportersOffline',
  /** Degraded=False. */
  AllReplicasHealthy: 'AllReplicasHealthy',
  // --- ScalingLimited (upstream) ---
  /** ScalingLimited=True: replicas >= maxReplicas (not 0) and availableReplicas < minAvailableReplicas. */
  AtMaxReplicas: 'AtMaxReplicas',
  /** ScalingLimited=False. */
  WithinLimits: 'WithinLimits',
  // --- WarmBufferAvailable (ours) ---
  /** WarmBufferAvailable=True: at least minAvailableReplicas instances are available (with WaitForFirstConsumer, standbys count). */
  MinimumAvailable: 'MinimumAvailable',
  /** WarmBufferAvailable=False: fewer than minAvailableReplicas instances are available. */
  BelowMinimumAvailable: 'BelowMinimumAvailable',
  // --- Scaling (ours) ---
  /** Scaling=True while the set is being deleted and drains its instances. */
  Draining: 'Draining',
  /** Scaling=True: instances of an older template revision are being replaced. */
  RollingOut: 'RollingOut',
  /** Scaling=True: instances are being created, promoted from standby or given their Pod. */
  ScalingUp: 'ScalingUp',
  /** Scaling=True: instances are leaving the pool. */
  ScalingDown: 'ScalingDown',
  /** Scaling=False: idle instances beyond the need wait for scaleDownCooldown. */
  ScaleDownPending: 'ScaleDownPending',
  /** Scaling=False: the rules want more instances than maxReplicas allows (pending leases included). */
  MaxReplicasReached: 'MaxReplicasReached',
  /** Scaling=False: the pool matches its rules. */
  Stable: 'Stable',
  // --- InstancesHealthy (ours) ---
  /**
   * InstancesHealthy=False: instances have waited long for their credential Secret (`<exporter>-exporter`,
   * key `token`) or endpoint from Jumpstarter; the message names the Secret, never its value.
   */
  CredentialNotIssued: 'CredentialNotIssued',
  /** InstancesHealthy=False: instances failed before becoming ready; new Pods back off. */
  StartupFailureBackoff: 'StartupFailureBackoff',
  /** InstancesHealthy=False: instances that were ready went offline while their Pod runs. */
  InstancesOffline: 'InstancesOffline',
  /**
   * InstancesHealthy=False: the provisioner cannot tell how instances are (a host unreachable, an
   * observe that failed); the message is the provisioner's, never a secret.
   */
  InstancesUnobserved: 'InstancesUnobserved',
  /** InstancesHealthy=True. */
  InstancesHealthy: 'InstancesHealthy',
  // --- SpecValid (ours) ---
  /** SpecValid=False: the selector does not select the template labels; nothing is created. */
  SelectorDoesNotMatchTemplate: 'SelectorDoesNotMatchTemplate',
  /**
   * SpecValid=False: the set breaks a rule of validateExporterSet that admission did not enforce (a CRD
   * installed without our rules); no instance is created until the spec is fixed.
   */
  InvalidSpec: 'InvalidSpec',
  /**
   * SpecValid=False: a spec.schedules entry breaks a rule admission did not enforce; it is ignored (the
   * pool keeps its static warm buffer), and creates go on.
   */
  ScheduleIgnored: 'ScheduleIgnored',
  /** SpecValid=True. */
  SpecValid: 'SpecValid',
  // --- ReplicaFailure and ParametersValid (ours) ---
  /** ReplicaFailure=True: an Exporter create failed (the API server's message). */
  FailedCreate: 'FailedCreate',
  /** ReplicaFailure=True: an Exporter delete failed. */
  FailedDelete: 'FailedDelete',
  /** ReplicaFailure=True: a patch of an Exporter (promote, disable, release, labels) or of the set failed. */
  FailedPatch: 'FailedPatch',
  /** ReplicaFailure=True: an instance's config Secret could not be created. */
  FailedCreateSecret: 'FailedCreateSecret',
  /** ReplicaFailure=True: an instance's config Secret could not be brought up to date. */
  FailedUpdateSecret: 'FailedUpdateSecret',
  /** ReplicaFailure=True: an instance's Pod could not be created. */
  FailedCreatePod: 'FailedCreatePod',
  /** ReplicaFailure=True: an instance's Pod could not be deleted. */
  FailedDeletePod: 'FailedDeletePod',
  /** ReplicaFailure=True: the provisioner could not render an instance (its message); no Pod is started. */
  FailedRender: 'FailedRender',
  /** ReplicaFailure=True: the provisioner could not realise an instance off the cluster (its message). */
  FailedRealise: 'FailedRealise',
  /** ReplicaFailure=True: the provisioner could not tear an instance down (its message). */
  FailedTeardown: 'FailedTeardown',
  /** ReplicaFailure=True: a revision of the set could not be recorded (its ControllerRevision create failed). */
  FailedRecordRevision: 'FailedRecordRevision',
  /** ReplicaFailure=True: a revision beyond the history limit could not be deleted. */
  FailedPruneRevision: 'FailedPruneRevision',
  /** ReplicaFailure=False (the executor sets True with one of the Failed* reasons above). */
  NoFailures: 'NoFailures',
  InvalidParameters: 'InvalidParameters',
  ParametersValid: 'ParametersValid',
  // --- Paused and Unbounded (ours) ---
  /** Paused=True: spec.paused is true. */
  SpecPaused: 'SpecPaused',
  /** Paused=False. */
  NotPaused: 'NotPaused',
  /** Unbounded=True: maxReplicas is 0. */
  NoMaxReplicas: 'NoMaxReplicas',
  /** Unbounded=False: maxReplicas bounds the pool. */
  MaxReplicasSet: 'MaxReplicasSet',
  // --- RevisionPinned (ours) ---
  /** RevisionPinned=True: spec.pinnedRevision names a recorded revision of the set. */
  PinnedRevisionFound: 'PinnedRevisionFound',
  /** RevisionPinned=False: spec.pinnedRevision names no recorded revision; no instance is touched. */
  PinnedRevisionNotFound: 'PinnedRevisionNotFound',
  /** RevisionPinned=False: spec.pinnedRevision is not set; instances are built from the template. */
  NotPinned: 'NotPinned',
  // --- ProvisionerSwitched (ours) ---
  /** ProvisionerSwitched=True: the class was switched to another provisioner while the set ran. */
  ProvisionerChanged: 'ProvisionerChanged',
} as const;

/** Lease condition types set by Jumpstarter's controller. */
export const LeaseConditionTypes = {
  Pending: 'Pending',
  Ready: 'Ready',
  Unsatisfiable: 'Unsatisfiable',
  Invalid: 'Invalid',
} as const;

/** Exporter condition types set by Jumpstarter (the exporter process and its controller). */
export const ExporterConditionTypes = {
  Registered: 'Registered',
  Online: 'Online',
} as const;

/** Provisioner names from JEP-0014. */
export const ProvisionerNames = {
  qemu: 'qemu.jumpstarter.dev',
  /** Off-cluster QEMU over SSH (JEP Phase 3), upstream's name; `qemuBaremetal` is the JEP's, an alias. */
  qemuSsh: 'qemu-ssh.jumpstarter.dev',
  qemuBaremetal: 'qemu-baremetal.jumpstarter.dev',
  corellium: 'corellium.jumpstarter.dev',
  android: 'android.jumpstarter.dev',
  ec2: 'ec2.jumpstarter.dev',
} as const;

/** Container images used when neither the class nor the set names one: Jumpstarter's published images. */
export const DefaultImages = {
  exporter: 'quay.io/jumpstarter-dev/jumpstarter:latest',
  runtime: 'quay.io/jumpstarter-dev/virtual/qemu-runtime:latest',
  pullPolicy: 'IfNotPresent',
} as const;

/** CRD defaults; the CRD schemas and the manifest builders both read these, so they cannot disagree. */
export const Defaults = {
  minReplicas: 0,
  maxReplicas: 4,
  minAvailableReplicas: 0,
  scaleDownCooldown: '5m',
  recycleStrategy: 'ExitAndReplace',
  /** Recorded revisions no instance runs that a set keeps for a rollback (not written by the CRD). */
  revisionHistoryLimit: 10,
  bindingMode: 'Immediate',
  reclaimPolicy: 'Delete',
  caBundleKey: 'ca-bundle.crt',
} as const;

/** Where the exporter config's `tls.ca` comes from when the class names no CA bundle (Jumpstarter's default). */
export const DefaultCaBundle = {
  configMapName: 'jumpstarter-service-ca-cert',
  key: 'ca.crt',
} as const;
