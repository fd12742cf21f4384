#!/usr/bin/perl
# Corpus seed for ho30_bugzilla (ours, not Bugzilla's): fills a freshly set-up Bugzilla through its own
# objects, so every row is what its forms would have written. Run from the checkout's root after
# checksetup.pl. Deterministic: the same rows, in the same order, every build.
use strict;
use warnings;
use lib qw(. lib);

use Bugzilla;
use Bugzilla::Constants;
use Bugzilla::User;
use Bugzilla::Product;
use Bugzilla::Component;
use Bugzilla::Version;
use Bugzilla::Milestone;
use Bugzilla::Keyword;
use Bugzilla::Bug;

Bugzilla->usage_mode(USAGE_MODE_CMDLINE);
my $admin = Bugzilla::User->check('admin@example.com');
Bugzilla->set_user($admin);

my @people;
for my $name (qw(alice bob carol dave)) {
  push @people,
    Bugzilla::User->create({
    login_name    => "$name\@example.com",
    realname      => ucfirst($name) . ' Tester',
    cryptpassword => "corpus-$name-pw",
    });
}

my @keywords;
for my $word (qw(crash regression perf ux security dataloss l10n docs)) {
  push @keywords,
    Bugzilla::Keyword->create({name => $word, description => "Reports tagged $word."});
}

my %products = (
  'Widget Server' => ['API', 'Storage', 'Scheduler', 'Auth'],
  'Widget Client' => ['UI', 'Sync', 'Installer'],
  'Handbook'      => ['Guides', 'Reference'],
);
my @components;
for my $pname (sort keys %products) {
  my $product = Bugzilla::Product->create({
    name             => $pname,
    description      => "The $pname, as shipped to customers.",
    version          => '1.0',
    defaultmilestone => '---',
  });
  Bugzilla::Version->create({value => $_, product => $product}) for qw(1.1 2.0);
  Bugzilla::Milestone->create({value => $_, product => $product}) for qw(M1 M2);
  for my $cname (@{$products{$pname}}) {
    my $owner = $people[@components % @people];
    push @components,
      Bugzilla::Component->create({
      name             => $cname,
      product          => $product,
      description      => "Everything about $cname in the $pname.",
      initialowner     => $owner->login,
      initialqacontact => '',
      });
  }
}

my @summaries = (
  'Crash when saving an empty title', 'Sync stops after the laptop sleeps',
  'Typo in the install guide',        'Login form forgets the remember-me box',
  'Scheduler runs a job twice at midnight', 'Export button does nothing in Firefox',
  'Slow search with many tags',       'Dark mode unreadable in dialogs',
  'API returns 200 for a missing item', 'Storage quota shown in bits',
);
my @severities = qw(blocker critical major normal minor trivial enhancement);
my @priorities = qw(Highest High Normal Low Lowest);
my $count = 0;
for my $round (1 .. 6) {
  for my $i (0 .. $#summaries) {
    $count++;
    my $component = $components[($count * 7) % @components];
    my $reporter  = $count % 3 ? $people[$count % @people] : $admin;
    Bugzilla->set_user(Bugzilla::User->new($reporter->id));
    my $summary = $summaries[$i] . ($round > 1 ? " (case $round)" : '');
    $summary = 'Widget title shows <script>alert("bz")</script> verbatim' if $count == 17;
    my $bug = Bugzilla::Bug->create({
      product      => $component->product->name,
      component    => $component->name,
      version      => '1.0',
      target_milestone => '---',
      bug_severity => $severities[$count % @severities],
      priority     => $priorities[$count % @priorities],
      rep_platform => 'All',
      op_sys       => 'All',
      short_desc   => $summary,
      comment      => "Steps: open the $summary page and look.\nSeen on build $count.",
      bug_status   => 'CONFIRMED',
      keywords     => [map { $_->name } @keywords[$count % 5, ($count + 2) % 8]],
      cc           => [map { $_->login } @people[($count % 4), (($count + 1) % 4)]],
      bug_file_loc => $count % 4 ? '' : "http://example.com/widgets/$count",
      status_whiteboard => $count % 5 ? '' : "[triage-$round]",
    });
    for my $n (1 .. ($count % 4)) {
      my $author = $people[($count + $n) % @people];
      Bugzilla->set_user(Bugzilla::User->new($author->id));
      $bug = Bugzilla::Bug->new($bug->id);
      $bug->add_comment("Also seen here (note $n on bug $count).");
      $bug->update();
    }
    if ($count % 6 == 0) {
      Bugzilla->set_user(Bugzilla::User->new($admin->id));
      $bug = Bugzilla::Bug->new($bug->id);
      $bug->set_bug_status('RESOLVED', {resolution => 'FIXED'});
      $bug->update();
    }
  }
}
Bugzilla->set_user($admin);
print "seeded $count bugs, ", scalar(@components), " components, ", scalar(@keywords), " keywords\n";
