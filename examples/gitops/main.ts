// Entry point of `npm run synth` (cdk8s.yaml-free: the app is passed with --app).
import { buildGitopsApp } from './app';

buildGitopsApp().synth();
