#!/usr/bin/perl
# Seed of ho16_rt (Request Tracker run in place from its checkout): the site configuration (loopback,
# SQLite in var/, outgoing mail to an mbox file, no log file), a fresh database made by RT's own
# rt-setup-database, then a help desk's data through RT's API: the admin alice (SuperUser), twelve staff,
# sixty customers, four queues, 150 tickets (the IT queue's 86 are two pages of 50 in its search), a few
# replies, comments and time worked, and four dashboards. Usage: perl ho16_rt_seed.pl ROOT
use strict;
use warnings;
use Digest::SHA;
use File::Copy qw(copy);
use File::Find qw(find);
use File::Path qw(make_path remove_tree);

my $root = shift or die "usage: perl ho16_rt_seed.pl ROOT\n";
chdir $root or die "cannot chdir to $root: $!\n";

make_path("etc/RT_SiteConfig.d", "var/session_data", "var/mason_data", "var/log");
# compiled templates of the other build must not be served
remove_tree("var/mason_data/obj", "var/mason_data/cache");
remove_tree("var/session_data");
make_path("var/session_data");
unlink "var/corpus-rt.db";

open my $cfg, ">", "etc/RT_SiteConfig.d/corpus.pm" or die "cannot write the site config: $!\n";
print {$cfg} <<'CONFIG';
# written by ho16_rt_seed.pl: loopback, SQLite, no mail, no log file
Set($rtname, 'corpus.example');
Set($Organization, 'corpus.example');
Set($WebDomain, '127.0.0.1');
Set($WebPort, $ENV{HO16_RT_PORT} || 80);
Set($WebPath, '');
Set($DatabaseType, 'SQLite');
Set($DatabaseName, $RT::VarPath . '/corpus-rt.db');
Set($MailCommand, 'mbox');
Set($LogToSTDERR, 'error');
Set($LogToFile, undef);
Set($LogToSyslog, undef);
1;
CONFIG
close $cfg;

# The seeded database is kept per distinct source of what makes it (RT's lib/ and initial data, this
# script): a start copies it (seconds) instead of seeding again (minutes on a loaded machine).
my $sha = Digest::SHA->new(1);
$sha->addfile($0);
$sha->addfile($_) for "etc/initialdata", "etc/schema.SQLite";
find({ no_chdir => 1, wanted => sub { $sha->addfile($_) if /\.pm\z/ && -f $_ } }, "lib");
my $kept = ".corpus-seeded/" . $sha->hexdigest . ".db";
if (-f $kept) {
    copy($kept, "var/corpus-rt.db") or die "cannot copy $kept: $!\n";
    print "seeded: copied $kept\n";
    exit 0;
}

system($^X, "sbin/rt-setup-database", "--action", "init", "--skip-create") == 0
  or die "rt-setup-database failed\n";

# the data, in a fresh interpreter over the new database
system($^X, "-e", <<'PERL', $root) == 0 or die "seeding the data failed\n";
use strict;
use warnings;
no warnings "once";
my $root = shift;
unshift @INC, "$root/local/lib", "$root/lib";
require RT;
RT::LoadConfig();
RT::Init();
require MIME::Entity;
# one fresh disposable database: no fsync per statement
$RT::Handle->dbh->do("PRAGMA synchronous = OFF");

my $sys = RT->SystemUser;
sub ok { my ($what, $ok, $msg) = @_; die "$what: $msg\n" unless $ok; }

my $alice = RT::User->new($sys);
ok("alice", $alice->Create(
    Name => "alice", Password => "corpus-alice-pw", EmailAddress => "alice\@corpus.example",
    RealName => "Alice Archer", Organization => "Help desk", Privileged => 1));
# the staff (alice among them) are agents, not administrators: the rights of a help desk's agents
{
    my $privileged = RT::Group->new($sys);
    $privileged->LoadSystemInternalGroup("Privileged");
    for my $right (qw(SeeQueue ShowTicket CreateTicket ReplyToTicket CommentOnTicket OwnTicket ModifyTicket
                      DeleteTicket TakeTicket StealTicket ShowTicketComments Watch ModifySelf ShowSavedSearches
                      CreateSavedSearch EditSavedSearches LoadSavedSearch CreateOwnDashboard ModifyOwnDashboard
                      DeleteOwnDashboard SeeOwnDashboard SubscribeDashboard SeeGroup)) {
        my ($ok, $msg) = $privileged->PrincipalObj->GrantRight(Right => $right, Object => RT->System);
        ok("right $right", $ok, $msg);
    }
}

my @first = qw(Bruno Carla Dmitri Elena Farid Greta Hiro Ines Jonas Kira Lars Mona Nils Olga Pavel Quinn
               Rosa Sami Tara Umar Vera Wim Xenia Yusuf Zoe);
my @last = qw(Abbott Brandt Castro Dahl Evans Fischer Garcia Horvat Ivanova Jensen Kowalski Lopez);
my @staff;
for my $i (0 .. 11) {
    my $u = RT::User->new($sys);
    my $name = lc($first[$i]);
    ok("staff $name", $u->Create(
        Name => $name, Password => "corpus-staff-pw", EmailAddress => "$name\@corpus.example",
        RealName => "$first[$i] $last[$i]", Organization => "Help desk", Privileged => 1));
    push @staff, $u;
}
my @customers;
for my $i (0 .. 59) {
    my $f = $first[($i + 3) % @first];
    my $l = $last[($i * 5) % @last];
    my $u = RT::User->new($sys);
    my $email = lc("$f.$l.$i\@customers.example");
    ok("customer $email", $u->Create(
        Name => $email, EmailAddress => $email, RealName => "$f $l",
        Organization => ("Northwind", "Contoso", "Globex", "Initech", "Umbrella")[$i % 5], Privileged => 0));
    push @customers, $u;
}

my %queue;
for my $spec (["IT Support", "Laptops, accounts, printers and the network"],
              ["Billing", "Invoices, refunds and payment questions"],
              ["Facilities", "Building, desks, heating and keys"]) {
    my $q = RT::Queue->new($sys);
    ok("queue $spec->[0]", $q->Create(Name => $spec->[0], Description => $spec->[1],
        CorrespondAddress => lc((split / /, $spec->[0])[0]) . "\@corpus.example"));
    $queue{$spec->[0]} = $q;
}
$queue{General} = RT::Queue->new($sys);
$queue{General}->Load("General");

my %topics = (
    "IT Support" => ["Laptop will not boot", "VPN drops every hour", "Printer on 3rd floor jams",
                     "Password reset for the wiki", "New hire needs an account", "Monitor flickers",
                     "Outlook keeps asking for the password", "Request for a second screen",
                     "Wi-Fi slow in meeting room B", "Docking station not charging", "Install the PDF editor",
                     "Phone extension not ringing", "Shared drive is full"],
    "Billing" => ["Invoice total looks wrong", "Refund for a double charge", "Change of billing address",
                  "Credit card declined", "Copy of last year's invoices", "VAT number missing on invoice"],
    "Facilities" => ["Heating broken in room 204", "Desk chair is broken", "Lost office key",
                     "Light flickering in the kitchen", "Parking badge request"],
    "General" => ["Question about opening hours", "Feedback on the new portal", "Where do I send my CV?"],
);
my @plan = (("IT Support") x 86, ("Billing") x 32, ("Facilities") x 20, ("General") x 12);
my @statuses = qw(open new open stalled open resolved open new open rejected);
my $n = 0;
my @tickets;
for my $qname (@plan) {
    $n++;
    my $list = $topics{$qname};
    my $subject = $list->[$n % @$list] . " (" . (qw(Mon Tue Wed Thu Fri))[$n % 5] . " #" . (100 + $n) . ")";
    my $customer = $customers[($n * 7) % @customers];
    my $owner = $n % 4 == 0 ? RT->Nobody->id : $staff[$n % @staff]->id;
    my $mime = MIME::Entity->build(
        Type => "text/plain", Charset => "UTF-8",
        Data => ["Hello,\n\n" . $subject . ": it started this week and blocks my work.\n"
                 . "Reference $n, " . $customer->Organization . ".\n\nThanks,\n" . $customer->RealName . "\n"]);
    my $status = $statuses[$n % @statuses];
    my $t = RT::Ticket->new($sys);
    my ($id, undef, $msg) = $t->Create(
        Queue => $queue{$qname}->id, Subject => $subject, Requestor => [$customer->EmailAddress],
        Owner => $owner, Status => ($status =~ /^(stalled|rejected)$/ ? "open" : $status), Priority => ($n * 13) % 100,
        TimeEstimated => ($n % 4 == 2 ? 0 : 60 * ($n % 5 + 1)), MIMEObj => $mime);
    ok("ticket $n", $id, $msg);
    if ($status =~ /^(stalled|rejected)$/) {
        my ($set, $why) = $t->SetStatus($status);
        ok("ticket $n status", $set, $why);
    }
    push @tickets, $t;
}
# a pasted page fragment in one customer's request, shown as text by RT
{
    my $customer = $customers[7];
    my $t = RT::Ticket->new($sys);
    my ($id, undef, $msg) = $t->Create(
        Queue => $queue{"IT Support"}->id,
        Subject => q{Error banner <script>document.title='pwned-ho16'</script> on the intranet},
        Requestor => [$customer->EmailAddress], Owner => RT->Nobody->id, Status => "open", Priority => 55,
        MIMEObj => MIME::Entity->build(Type => "text/plain", Charset => "UTF-8",
            Data => ["The intranet shows this banner; I pasted what it says into the subject.\n"]));
    ok("pasted ticket", $id, $msg);
    push @tickets, $t;
}
# replies, comments and time worked on some tickets
for my $i (grep { $_ % 6 == 1 } 0 .. $#tickets) {
    my $t = $tickets[$i];
    my $staffer = $staff[$i % @staff];
    my $as = RT::Ticket->new(RT::CurrentUser->new($staffer));
    $as->Load($t->id);
    $as->Correspond(Content => "Thanks for the report, we are looking into it.", TimeTaken => 15);
    $as->Comment(Content => "Checked the logs; needs a second look tomorrow.", TimeTaken => 10 + $i % 20)
        if $i % 4 == 1;
}

# four dashboards of alice's
require RT::Dashboard;
my $alice_cu = RT::CurrentUser->new($alice);
for my $name ("Morning triage", "Billing follow-up", "Facilities week", "My open work") {
    my $dashboard = RT::Dashboard->new($alice_cu);
    my ($ok, $msg) = $dashboard->Save(Name => $name, Privacy => "RT::User-" . $alice->id);
    ok("dashboard $name", $ok, $msg);
}
print "seeded: ", scalar(@tickets), " tickets, ", scalar(@customers), " customers, ", scalar(@staff), " staff\n";
PERL
make_path(".corpus-seeded");
copy("var/corpus-rt.db", "$kept.tmp") and rename("$kept.tmp", $kept) or die "cannot keep the seeded database: $!\n";
