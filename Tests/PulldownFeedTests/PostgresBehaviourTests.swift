import Foundation
import XCTest
@testable import PulldownFeed

// The behaviour suites again, on PostgreSQL: each subclass sets `backend` and names the inherited
// tests once more, because test discovery on Linux does not find a subclass that declares no
// test methods of its own. `testEveryStoreBehaviourTestAlsoRunsOnPostgres` fails when one is
// forgotten. Tests that do not touch the store (SessionID, SplitMix64) need no override.
// Skipped when PULLDOWN_TEST_POSTGRES_URL is unset; `make test` sets it (scripts/postgres.sh).

final class PostgresPagingTests: PagingTests {
    override var backend: any StoreBackend { PostgresBackend() }
    override func setUpWithError() throws { try PostgresBackend.skipUnlessConfigured() }

    override func testPagingWalksEveryItemExactlyOnceWhileNewItemsArrive() throws { try super.testPagingWalksEveryItemExactlyOnceWhileNewItemsArrive() }
    override func testAroundAndBetweenReadTheStoreAsThePureCutSays() throws { try super.testAroundAndBetweenReadTheStoreAsThePureCutSays() }
    override func testFirstPageIsNewestAndHasMoreIsFalseAtTheEnd() throws { try super.testFirstPageIsNewestAndHasMoreIsFalseAtTheEnd() }
    override func testNewerReturnsTheItemsImmediatelyAboveTheCursorAndReportsTheGap() throws { try super.testNewerReturnsTheItemsImmediatelyAboveTheCursorAndReportsTheGap() }
    override func testLimitsOutsideTheConfiguredRangeAreClamped() throws { try super.testLimitsOutsideTheConfiguredRangeAreClamped() }
    override func testNewestIDAndRevisionOnlyGrow() throws { try super.testNewestIDAndRevisionOnlyGrow() }
    override func testIDsAreNeverReusedAfterTheNewestRowIsDeleted() throws { try super.testIDsAreNeverReusedAfterTheNewestRowIsDeleted() }
    override func testAddedItemReadsBackUnchangedWithWholeSecondUTCTime() throws { try super.testAddedItemReadsBackUnchangedWithWholeSecondUTCTime() }
    override func testOwnFieldsOfAnAddedItemReadBackAsGiven() throws { try super.testOwnFieldsOfAnAddedItemReadBackAsGiven() }
}

final class PostgresRefreshTests: RefreshTests {
    override var backend: any StoreBackend { PostgresBackend() }
    override func setUpWithError() throws { try PostgresBackend.skipUnlessConfigured() }

    override func testRefreshGeneratesNothingBeforeTheIntervalAndOneToThreeItemsAfterIt() throws { try super.testRefreshGeneratesNothingBeforeTheIntervalAndOneToThreeItemsAfterIt() }
    override func testGeneratorOffMeansRefreshNeverAddsItems() throws { try super.testGeneratorOffMeansRefreshNeverAddsItems() }
    override func testAnUnseededFeedStartsGeneratingOneIntervalAfterTheFirstRefresh() throws { try super.testAnUnseededFeedStartsGeneratingOneIntervalAfterTheFirstRefresh() }
    override func testAddingAnItemRestartsTheGeneratorInterval() throws { try super.testAddingAnItemRestartsTheGeneratorInterval() }
    override func testRefreshReturnsTheNewestItemsAboveTheBaselineAndFlagsTheGap() throws { try super.testRefreshReturnsTheNewestItemsAboveTheBaselineAndFlagsTheGap() }
    override func testBaselineFallsBackToTheSessionsLastSeenID() throws { try super.testBaselineFallsBackToTheSessionsLastSeenID() }
    override func testRefreshStampsTheSessionAndLastUpdatedNeverMovesBack() throws { try super.testRefreshStampsTheSessionAndLastUpdatedNeverMovesBack() }
    override func testACursorBeyondTheNewestItemDoesNotHideLaterItems() throws { try super.testACursorBeyondTheNewestItemDoesNotHideLaterItems() }
    override func testAFailedRefreshChangesNothing() throws { try super.testAFailedRefreshChangesNothing() }
    override func testConcurrentRefreshesOfOneSessionAreAllCounted() throws { try super.testConcurrentRefreshesOfOneSessionAreAllCounted() }
    override func testGroupCommittedRefreshesAreEachAnsweredAndCounted() throws { try super.testGroupCommittedRefreshesAreEachAnsweredAndCounted() }
    override func testAFailedGroupCommitFailsItsRefreshesAndChangesNothing() throws { try super.testAFailedGroupCommitFailsItsRefreshesAndChangesNothing() }
}

final class PostgresSeedingTests: SeedingTests {
    override var backend: any StoreBackend { PostgresBackend() }
    override func setUpWithError() throws { try PostgresBackend.skipUnlessConfigured() }

    override func testSeedingIsDeterministicForTheSameCount() throws { try super.testSeedingIsDeterministicForTheSameCount() }
    override func testSeedingSpreadsItemsOverSeveralDaysOldestFirst() throws { try super.testSeedingSpreadsItemsOverSeveralDaysOldestFirst() }
    override func testSeedingOnlyFillsAnEmptyFeed() throws { try super.testSeedingOnlyFillsAnEmptyFeed() }
}

final class PostgresSessionTests: SessionTests {
    override var backend: any StoreBackend { PostgresBackend() }
    override func setUpWithError() throws { try PostgresBackend.skipUnlessConfigured() }

    override func testSessionsPersistAcrossReopeningTheSameFile() throws { try super.testSessionsPersistAcrossReopeningTheSameFile() }
    override func testReadsNeverCreateASession() throws { try super.testReadsNeverCreateASession() }
    override func testIdleSessionsExpireAndActiveOnesStay() throws { try super.testIdleSessionsExpireAndActiveOnesStay() }
}

final class PostgresSessionTokenTests: SessionTokenTests {
    override var backend: any StoreBackend { PostgresBackend() }
    override func setUpWithError() throws { try PostgresBackend.skipUnlessConfigured() }

    override func testIssuedTokenVerifiesToItsID() throws { try super.testIssuedTokenVerifiesToItsID() }
    override func testTamperedShortLongUppercaseAndGarbageTokensAreRejected() throws { try super.testTamperedShortLongUppercaseAndGarbageTokensAreRejected() }
    override func testTheIdATokenClaimsIsReadWithoutCheckingItsSignature() throws { try super.testTheIdATokenClaimsIsReadWithoutCheckingItsSignature() }
    override func testTokensFromAnotherSecretAreRejected() throws { try super.testTokensFromAnotherSecretAreRejected() }
    override func testTokensSurviveReopeningTheStore() throws { try super.testTokensSurviveReopeningTheStore() }
    override func testInstancesStartingAtOnceOnOneDatabaseShareOneSecret() throws { try super.testInstancesStartingAtOnceOnOneDatabaseShareOneSecret() }
}

/// Guards the lists above: every behaviour test of a base suite is named in its Postgres subclass.
final class PostgresSuiteCompletenessTests: XCTestCase {
    func testEveryStoreBehaviourTestAlsoRunsOnPostgres() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let overrides = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let storeless: Set = ["testSessionIDHexIs32LowercaseCharactersAndRoundTrips", "testSplitMix64MatchesTheReferenceSequence"]
        for suite in ["Paging", "Refresh", "Seeding", "Session", "SessionToken", "Import", "Reset", "DemoSequence", "Change"] {
            let source = try String(contentsOf: folder.appendingPathComponent("\(suite)Tests.swift"), encoding: .utf8)
            for line in source.split(separator: "\n") where line.contains("    func test") {
                let name = line.split(separator: "func ")[1].prefix(while: { $0 != "(" })
                guard !storeless.contains(String(name)) else { continue }
                XCTAssertTrue(overrides.contains("override func \(name)()"), "\(suite)Tests.\(name) does not run on PostgreSQL")
            }
        }
    }
}

final class PostgresImportTests: ImportTests {
    override var backend: any StoreBackend { PostgresBackend() }
    override func setUpWithError() throws { try PostgresBackend.skipUnlessConfigured() }

    override func testEntriesAreOrderedByTheirTimeAndWithoutOneTheFirstIsTheNewest() throws { try super.testEntriesAreOrderedByTheirTimeAndWithoutOneTheFirstIsTheNewest() }
    override func testMoreThanABatchIsImportedInOrder() throws { try super.testMoreThanABatchIsImportedInOrder() }
    override func testAGrownFileAddsItsNewEntriesAsTheNewestAndARefusedStoreChangesNothing() throws { try super.testAGrownFileAddsItsNewEntriesAsTheNewestAndARefusedStoreChangesNothing() }
    override func testAnotherStoreIsRefusedAndResetReplacesItemsAndSessions() throws { try super.testAnotherStoreIsRefusedAndResetReplacesItemsAndSessions() }
    override func testTheDemoFeedIsReplacedOnlyUntouchedAndABadEntryImportsNothing() throws { try super.testTheDemoFeedIsReplacedOnlyUntouchedAndABadEntryImportsNothing() }
}

final class PostgresResetTests: ResetTests {
    override var backend: any StoreBackend { PostgresBackend() }
    override func setUpWithError() throws { try PostgresBackend.skipUnlessConfigured() }

    override func testAResetDeletesItemsAndSessionsAndSeedsTheDemoAsANewStoreWould() throws { try super.testAResetDeletesItemsAndSessionsAndSeedsTheDemoAsANewStoreWould() }
    override func testAResetMovesTheRevisionRenewsTheIdentityAndIsHeard() throws { try super.testAResetMovesTheRevisionRenewsTheIdentityAndIsHeard() }
    override func testARefusedResetChangesNothing() throws { try super.testARefusedResetChangesNothing() }
    override func testTheFeedIsTheDemosUntilSomethingIsPosted() throws { try super.testTheFeedIsTheDemosUntilSomethingIsPosted() }
    override func testPictureOriginsArriveWithTheirItemsAndAResetEmptiesThem() throws { try super.testPictureOriginsArriveWithTheirItemsAndAResetEmptiesThem() }
}

final class PostgresDemoSequenceTests: DemoSequenceTests {
    override var backend: any StoreBackend { PostgresBackend() }
    override func setUpWithError() throws { try PostgresBackend.skipUnlessConfigured() }

    override func testTheSameSeedAddsTheSameItemsInTheSameOrderHoweverTheyAreAdded() throws { try super.testTheSameSeedAddsTheSameItemsInTheSameOrderHoweverTheyAreAdded() }
    override func testAnotherSeedAddsOtherItems() throws { try super.testAnotherSeedAddsOtherItems() }
    override func testAResetStartsTheSequenceOverAndARestartGoesOn() throws { try super.testAResetStartsTheSequenceOverAndARestartGoesOn() }
    override func testDemoItemsComeNewestFirstAtOneTimeAndReachObservers() throws { try super.testDemoItemsComeNewestFirstAtOneTimeAndReachObservers() }
}

final class PostgresChangeTests: ChangeTests {
    override var backend: any StoreBackend { PostgresBackend() }
    override func setUpWithError() throws { try PostgresBackend.skipUnlessConfigured() }

    override func testAnEditIsANewVersionNumberedFromTheSequenceTheIDsComeFrom() throws { try super.testAnEditIsANewVersionNumberedFromTheSequenceTheIDsComeFrom() }
    override func testAnEditThatChangesNothingIsNoNewVersion() throws { try super.testAnEditThatChangesNothingIsNoNewVersion() }
    override func testEditsAreCheckedAsPostsAreAndARefusalWritesNothing() throws { try super.testEditsAreCheckedAsPostsAreAndARefusalWritesNothing() }
    override func testAMissingOrDeletedItemCannotBeChanged() throws { try super.testAMissingOrDeletedItemCannotBeChanged() }
    override func testADeletedItemKeepsItsPlaceSoPagesMayBeShortButNeverMove() throws { try super.testADeletedItemKeepsItsPlaceSoPagesMayBeShortButNeverMove() }
    override func testTheLogListsEachItemsLatestChangeOldestFirst() throws { try super.testTheLogListsEachItemsLatestChangeOldestFirst() }
    override func testASinceOlderThanTheLogKeepsIsExpired() throws { try super.testASinceOlderThanTheLogKeepsIsExpired() }
    override func testAResetForgetsTheLogAndExpiresEverySinceBeforeIt() throws { try super.testAResetForgetsTheLogAndExpiresEverySinceBeforeIt() }
    override func testARefreshBringsTheChangesSinceTheSessionsLastOne() throws { try super.testARefreshBringsTheChangesSinceTheSessionsLastOne() }
    override func testARefreshFurtherBehindThanItCanBringStartsOverFromTheNewestPage() throws { try super.testARefreshFurtherBehindThanItCanBringStartsOverFromTheNewestPage() }
    override func testChangeObserversHearBeforeTheSequenceMoves() throws { try super.testChangeObserversHearBeforeTheSequenceMoves() }
    override func testConcurrentEditsOfOneItemAreEachANewVersion() throws { try super.testConcurrentEditsOfOneItemAreEachANewVersion() }
}
